#pragma once
#include <atomic>
#include <cstdint>

namespace tcpscope {

/// Progress of a long load, written by the worker and read by any thread (the GUI polls it or
/// turns it into signals). All counters are monotonic.
struct LoadProgress {
    std::atomic<uint64_t> bytesDone{0};   ///< input bytes consumed, over all files
    std::atomic<uint64_t> bytesTotal{0};  ///< sum of the file sizes (0 if unknown, e.g. a pipe)
    std::atomic<uint64_t> frames{0};      ///< frames analysed so far
    std::atomic<bool> finished{false};
};

/// Asks a running load to stop, after the run of frames in course (at most 64). The results up to
/// there stay valid.
class StopToken {
public:
    void requestStop() { stop_.store(true, std::memory_order_relaxed); }
    [[nodiscard]] bool stopRequested() const { return stop_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> stop_{false};
};

}  // namespace tcpscope
