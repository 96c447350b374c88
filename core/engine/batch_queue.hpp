#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/analysis_engine.hpp"

namespace tcpscope {

/// Frames read on the frame driver's reading thread, handed to the analysing thread in one piece:
/// decoded (AnalysisEngine::decode) and, when the reading thread also tracks, tracked (AnalysisEngine::trackRun).
struct FrameBatch {
    static constexpr size_t kFrames = 4096;

    explicit FrameBatch(bool tracking) : frames(kFrames), tracked(tracking ? kFrames : 0) {}

    std::vector<PreparedFrame> frames;
    std::vector<TrackedFrame> tracked;  ///< by position in `frames`, when tracking
    size_t count = 0;
    uint64_t bytesDone = 0;  ///< input bytes consumed once this batch was read
};

/// A bounded hand-over of batches between the reading thread and the analysing thread: a fixed
/// number circulate (the reader fills an empty one, the analyser empties a full one), so memory
/// stays flat and the reader never runs more than a few batches ahead. The analyser can also
/// pause the reader, to see the engine at rest once it has emptied every batch the reader filled.
class BatchQueue {
public:
    static constexpr size_t kBatches = 4;

    explicit BatchQueue(bool tracking) {
        for (size_t i = 0; i < kBatches; ++i) {
            free_.push_back(std::make_unique<FrameBatch>(tracking));
        }
    }

    // Reading side.
    /// An empty batch, or null once the analysing side has given up.
    std::unique_ptr<FrameBatch> takeEmpty() { return take(free_); }
    void pushFull(std::unique_ptr<FrameBatch> batch) { give(full_, std::move(batch)); }
    /// No more batches will come; `error` is what ended the reading early, if anything.
    void finishReading(std::exception_ptr error = nullptr) {
        const std::lock_guard lock(mutex_);
        readingDone_ = true;
        readerError_ = std::move(error);
        changed_.notify_all();
    }
    /// True if the analysing side wants the reader to pause (cheap enough to ask at every frame).
    [[nodiscard]] bool pauseRequested() const { return pauseRequested_.load(std::memory_order_relaxed); }
    /// Waits, with every batch it filled pushed, until the analysing side resumes it or gives up.
    void pause() {
        std::unique_lock lock(mutex_);
        readerPaused_ = true;
        changed_.notify_all();
        changed_.wait(lock, [&] { return !readerPaused_ || cancelled_; });
    }

    // Analysing side.
    /// The next full batch; null at the end of the input, or when the reader has paused
    /// (readerPaused()) and every batch it filled was taken.
    std::unique_ptr<FrameBatch> takeFull() { return take(full_); }
    void recycle(std::unique_ptr<FrameBatch> batch) { give(free_, std::move(batch)); }
    /// Asks the reader to pause after its current frame (see takeFull).
    void requestPause() { pauseRequested_.store(true, std::memory_order_relaxed); }
    [[nodiscard]] bool readerPaused() {
        const std::lock_guard lock(mutex_);
        return readerPaused_;
    }
    /// Lets a paused reader go on.
    void resume() {
        const std::lock_guard lock(mutex_);
        pauseRequested_.store(false, std::memory_order_relaxed);
        readerPaused_ = false;
        changed_.notify_all();
    }
    /// Stops the reader at its next wait (the analysing side gives up).
    void cancel() {
        const std::lock_guard lock(mutex_);
        cancelled_ = true;
        changed_.notify_all();
    }
    /// What ended the reading early (an exception on the reading thread), once it has finished.
    [[nodiscard]] std::exception_ptr readerError() {
        const std::lock_guard lock(mutex_);
        return readerError_;
    }

private:
    std::unique_ptr<FrameBatch> take(std::deque<std::unique_ptr<FrameBatch>>& from) {
        std::unique_lock lock(mutex_);
        const bool full = &from == &full_;
        changed_.wait(lock, [&] { return !from.empty() || cancelled_ || (full && (readingDone_ || readerPaused_)); });
        if (from.empty() || cancelled_) {
            return nullptr;
        }
        std::unique_ptr<FrameBatch> batch = std::move(from.front());
        from.pop_front();
        return batch;
    }
    void give(std::deque<std::unique_ptr<FrameBatch>>& to, std::unique_ptr<FrameBatch> batch) {
        const std::lock_guard lock(mutex_);
        to.push_back(std::move(batch));
        changed_.notify_all();
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::unique_ptr<FrameBatch>> free_;
    std::deque<std::unique_ptr<FrameBatch>> full_;
    std::atomic<bool> pauseRequested_{false};  // written by the analysing side, read at every frame by the reader
    bool readerPaused_ = false;
    bool readingDone_ = false;
    bool cancelled_ = false;
    std::exception_ptr readerError_;
};

}  // namespace tcpscope
