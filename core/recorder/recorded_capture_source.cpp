#include "recorder/recorded_capture_source.hpp"

#include <unistd.h>

#include "live/helper_capture.hpp"
#include "live/live_error.hpp"
#include "live/pcap_capture.hpp"
#include "recorder/helper_call_stream.hpp"
#include "recorder/live_call_recording.hpp"

namespace tcpscope {

RecordedCaptureSource openRecordedCaptureSource(const CaptureSourceOptions& options,
                                                const SyscallRecorderFilter& processes) {
    if (!options.viaHelper) {
        try {
            RecordedCaptureSource opened;
            opened.packets = std::make_unique<PcapCapture>(options.capture);
            opened.calls = std::make_unique<LiveCallRecording>(processes);
            return opened;
        } catch (const LiveCaptureError& error) {
            if (error.kind() != LiveErrorKind::PermissionDenied) {
                throw;
            }
        } catch (const SyscallRecorderError&) {
            if (::geteuid() == 0) {
                throw;  // no tracefs, no BTF: the helper could not do better
            }
            // This process may capture but not record (CAP_BPF, CAP_PERFMON): the helper may.
        }
    }
    auto stream = std::make_unique<HelperCallStream>();
    HelperSyscalls syscalls;
    syscalls.pids = processes.pids;
    syscalls.commands = processes.commands;
    syscalls.onCustomBlock = [calls = stream.get()](const CustomBlock& block) { calls->take(block); };
    RecordedCaptureSource opened;
    opened.packets =
        std::make_unique<HelperCapture>(requireCaptureHelper(options), options.capture, std::move(syscalls));
    opened.calls = std::move(stream);
    return opened;
}

}  // namespace tcpscope
