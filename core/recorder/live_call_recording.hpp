#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "live/capture_companion.hpp"
#include "recorded/recorded_call.hpp"
#include "recorder/call_processes.hpp"
#include "recorder/syscall_recorder.hpp"

namespace tcpscope {

/// The socket system calls of chosen processes recorded beside a live capture (`tcpscope-cli
/// capture --syscalls`), as `record` records them: each packet named with the process a call
/// showed at its end, the calls and the clock relation written into the capture file in the blocks
/// `record` writes (the file's application must be kRecordApplication for readers to scan them),
/// and the calls kept for the analysis of the capture (calls()). The ring buffer is read on a
/// thread of its own, and early by the capture thread for a packet whose connection no call showed yet.
class LiveCallRecording final : public CaptureCompanion {
public:
    /// Loads and attaches the recorder, and starts reading it. Throws SyscallRecorderError.
    explicit LiveCallRecording(const SyscallRecorderFilter& filter);
    ~LiveCallRecording() override;
    LiveCallRecording(const LiveCallRecording&) = delete;
    LiveCallRecording& operator=(const LiveCallRecording&) = delete;

    void annotate(RawPacket& packet) override;
    void writeInto(CaptureFileWriter* file) override;
    void finishInto(CaptureFileWriter* file) override;

    /// Every call recorded so far, with the clock relation at the start (and, once finished, at the
    /// end) and the calls lost: what readRecordedCalls reads back from the written file.
    [[nodiscard]] RecordedCalls calls() const;
    /// The calls recorded so far on these connections, and the calls of no socket (the waits) of the
    /// threads that made them, with the clock relation: what a pass over a few stalls needs of a long
    /// recording (LiveStallVerdicts).
    [[nodiscard]] RecordedCalls callsOf(std::span<const ConnectionEnds> connections) const;
    /// Calls recorded so far.
    [[nodiscard]] uint64_t callCount() const;
    /// Tracepoints that could not be attached.
    [[nodiscard]] const std::vector<std::string>& unattached() const { return recorder_.unattached(); }
    /// Packets given a process comment.
    [[nodiscard]] uint64_t packetsWithProcess() const { return packetsWithProcess_; }

private:
    void takeCalls();
    void addCalls(std::span<const uint8_t> events, uint32_t count);
    void writePending(CaptureFileWriter& file);  // mutex_ held

    SyscallRecorder recorder_;
    std::mutex recorderMutex_;  // the ring buffer: the reading thread, the capture thread, finishInto
    mutable std::mutex mutex_;  // what the calls taught (below)
    CallProcesses processes_;
    RecordedCalls calls_;
    std::vector<uint8_t> pendingEvents_;  // raw calls not in the file yet
    uint32_t pendingCount_ = 0;
    bool startWritten_ = false;
    bool finished_ = false;
    std::chrono::steady_clock::time_point lastBlock_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point lastEarlyTake_;  // capture thread only
    std::string comment_;                                  // the annotated packet's, capture thread only
    uint64_t packetsWithProcess_ = 0;                      // capture thread only
    std::atomic<bool> stopReading_{false};
    std::thread reader_;
};

}  // namespace tcpscope
