#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "live/capture_companion.hpp"
#include "recorded/recorded_call.hpp"

namespace tcpscope {

/// The socket system calls of chosen processes recorded beside a live capture (`capture
/// --syscalls`), whoever records them: this process (LiveCallRecording) or the capture helper, whose
/// stream carries them (HelperCallStream). Either way the packets reach the file and the analysis
/// named with their processes, the calls and the clock relation go into the capture file in the
/// blocks `record` writes, and the calls are kept for the live verdicts and the end-of-capture
/// alignment. calls() and callsOf() may be called from any thread.
class LiveCalls : public CaptureCompanion {
public:
    /// Every call recorded so far, with the clock relation at the start (and, once finished, at the
    /// end) and the calls lost: what readRecordedCalls reads back from the written file.
    [[nodiscard]] virtual RecordedCalls calls() const = 0;
    /// The calls recorded so far on these connections, and the waits of the threads that made them
    /// (callsOfConnections).
    [[nodiscard]] virtual RecordedCalls callsOf(std::span<const ConnectionEnds> connections) const = 0;
    /// Packets named with their process. Read once the capture has ended.
    [[nodiscard]] virtual uint64_t packetsWithProcess() const = 0;
    /// Tracepoints that could not be attached (known only in this process).
    [[nodiscard]] virtual std::vector<std::string> unattached() const = 0;
};

}  // namespace tcpscope
