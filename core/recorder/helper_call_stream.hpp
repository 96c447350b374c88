#pragma once
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "recorded/recorded_call.hpp"
#include "recorder/live_calls.hpp"

namespace tcpscope {

/// The socket system calls the capture helper recorded (`tcpscope-capture --syscalls`), taken out of
/// the pcapng stream it writes over the pipe: its packets come named with their processes, and
/// tcpscope's custom blocks (the clock relation, the calls, the summary with the calls lost) are
/// decoded as `analyze` decodes them from a file (readRecordBlock) and copied into the capture file
/// as they came. What comes in a block takes part in the live verdicts once read.
class HelperCallStream final : public LiveCalls {
public:
    /// One custom block of the stream (HelperSyscalls::onCustomBlock), on the capture thread;
    /// blocks of other enterprise numbers are left out.
    void take(const CustomBlock& block);

    /// Counts the packets the helper named with their process.
    void annotate(RawPacket& packet) override;
    void writeInto(CaptureFileWriter* file) override;
    void finishInto(CaptureFileWriter* file) override;

    [[nodiscard]] RecordedCalls calls() const override;
    [[nodiscard]] RecordedCalls callsOf(std::span<const ConnectionEnds> connections) const override;
    [[nodiscard]] uint64_t packetsWithProcess() const override { return packetsWithProcess_; }
    /// The helper does not say which tracepoints it could not attach.
    [[nodiscard]] std::vector<std::string> unattached() const override { return {}; }
    /// The first of tcpscope's blocks in the stream that could not be read (cut short, of an unknown
    /// kind or version), or empty.
    [[nodiscard]] std::string problem() const;

private:
    mutable std::mutex mutex_;  // calls_ and problem_: the capture thread writes, the analysis reads
    RecordedCalls calls_;
    std::string problem_;
    std::vector<std::vector<uint8_t>> pendingBlocks_;  // custom data not in the file yet; capture thread only
    uint64_t packetsWithProcess_ = 0;                  // capture thread only
};

}  // namespace tcpscope
