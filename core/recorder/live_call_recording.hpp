#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "recorded/recorded_call.hpp"
#include "recorder/call_processes.hpp"
#include "recorder/live_calls.hpp"
#include "recorder/syscall_recorder.hpp"

namespace tcpscope {

/// The socket system calls of chosen processes recorded beside a live capture (`tcpscope-cli
/// capture --syscalls`), as `record` records them: each packet named with the process a call
/// showed at its end, the calls and the clock relation written into the capture file in the blocks
/// `record` writes (the file's application must be kRecordApplication for readers to scan them),
/// and the calls kept for the analysis of the capture (calls()). The ring buffer is read on a
/// thread of its own, and early by the capture thread for a packet whose connection no call showed yet.
class LiveCallRecording final : public LiveCalls {
public:
    /// Loads and attaches the recorder, and starts reading it. Throws SyscallRecorderError.
    explicit LiveCallRecording(const SyscallRecorderFilter& filter);
    ~LiveCallRecording() override;
    LiveCallRecording(const LiveCallRecording&) = delete;
    LiveCallRecording& operator=(const LiveCallRecording&) = delete;

    void annotate(RawPacket& packet) override;
    void writeInto(CaptureFileWriter* file) override;
    void finishInto(CaptureFileWriter* file) override;

    [[nodiscard]] RecordedCalls calls() const override;
    [[nodiscard]] RecordedCalls callsOf(std::span<const ConnectionEnds> connections) const override;
    /// Calls recorded so far.
    [[nodiscard]] uint64_t callCount() const;
    [[nodiscard]] std::vector<std::string> unattached() const override { return recorder_.unattached(); }
    /// Packets given a process comment.
    [[nodiscard]] uint64_t packetsWithProcess() const override { return packetsWithProcess_; }

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
