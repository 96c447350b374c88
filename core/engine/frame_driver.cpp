#include "engine/frame_driver.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "engine/batch_queue.hpp"
#include "engine/worker_threads.hpp"

namespace tcpscope {

namespace {

// Progress and checkpoints on one thread: as often as a batch of the reading thread is handed over.
constexpr uint64_t kProgressEveryFrames = FrameBatch::kFrames;

// Frames are taken from the source this many at a time: decoded, then their tuples numbered (and
// their connections tracked) as a run, so that a run's hash-table and connection lookups can be
// asked for ahead (AnalysisEngine::trackRun); or pushed frame by frame, one call of the source a run.
constexpr size_t kRunFrames = 64;
static_assert(FrameBatch::kFrames % kRunFrames == 0 && kProgressEveryFrames % kRunFrames == 0);

bool stopRequested(const StopToken* stop) {
    return stop != nullptr && stop->stopRequested();
}

// Decodes the next frames of `source` into `run`, up to its size; returns how many. Sets `more` to
// false at the end of the source or on a stop request.
size_t decodeRun(FrameSource& source, const AnalysisEngine& engine, const StopToken* stop, std::span<PreparedFrame> run,
                 bool& more) {
    if (stopRequested(stop)) {
        more = false;
        return 0;
    }
    const size_t count = source.decodeNext(engine, run);
    more = count == run.size();
    return count;
}

// Reading thread: reads, decodes and numbers the tuples of the source's frames into batches until
// the end or a stop; with `tracking`, also tracks their connections and indexes them (AnalysisEngine::trackRun).
void readBatches(FrameSource& source, AnalysisEngine& engine, BatchQueue& queue, const StopToken* stop, bool tracking) {
    bool more = true;
    while (more) {
        std::unique_ptr<FrameBatch> batch = queue.takeEmpty();
        if (!batch) {
            break;
        }
        batch->count = 0;
        while (more && batch->count < batch->frames.size() && !queue.pauseRequested()) {
            const std::span<PreparedFrame> space(batch->frames.data() + batch->count, kRunFrames);
            const std::span<PreparedFrame> run = space.first(decodeRun(source, engine, stop, space, more));
            const size_t runStart = batch->count;
            batch->count += run.size();
            if (tracking) {
                engine.trackRun(run, std::span(batch->tracked.data() + runStart, run.size()));
            } else {
                engine.numberTuples(run);
            }
        }
        batch->bytesDone = source.bytesConsumed();
        queue.pushFull(std::move(batch));
        if (more && queue.pauseRequested()) {
            queue.pause();
        }
    }
    queue.finishReading();
}

// The reading thread's body: an exception ends the reading and is rethrown on the analysing thread.
void runReader(FrameSource& source, AnalysisEngine& engine, BatchQueue& queue, const StopToken* stop, bool tracking) {
    try {
        readBatches(source, engine, queue, stop, tracking);
    } catch (...) {
        queue.finishReading(std::current_exception());
    }
}

// Two threads: this one analyses what a reading thread has read and decoded. Used when the engine
// has no filter (the filter reads the frame's bytes on the engine's side) and a second thread is
// allowed (a second core, TCPSCOPE_THREADS not 1, and the caller's leave).
bool useReadingThread(const AnalysisEngine& engine, const DriveControls& controls) {
    return controls.readingThreadAllowed && !engine.hasFilter() && secondThreadAllowed();
}

// When the reading thread tracks, the engine is at rest for a checkpoint only once the reader has
// paused and this thread has caught up with it, which costs both threads a little: checkpoints come
// after the first batch, then after twice as many batches each time, up to this many.
constexpr uint32_t kMaxBatchesBetweenCheckpoints = 64;

// The split of the work: the reading thread reads, decodes and (unless the engine retires
// connections: retiring calls the observers while tracking) tracks the connections and indexes the
// packets; this thread hands the tracked segments to the observers (the detectors), or runs the
// whole in-order analysis when the reader does not track.
uint64_t analyseWithReadingThread(FrameSource& source, AnalysisEngine& engine, const DriveControls& controls) {
    const bool tracking = !engine.retiresConnections();
    BatchQueue queue(tracking);
    std::thread reader(runReader, std::ref(source), std::ref(engine), std::ref(queue), controls.stop, tracking);
    // Whatever happens here (an observer may throw), the reading thread is stopped and joined.
    struct JoinReader {
        BatchQueue& queue;
        std::thread& reader;
        ~JoinReader() {
            queue.cancel();
            reader.join();
        }
    } joinReader{queue, reader};
    uint64_t frames = 0;
    uint32_t batchesToCheckpoint = 1;
    uint32_t checkpointGap = 1;
    bool pauseRequested = false;
    while (true) {
        std::unique_ptr<FrameBatch> batch = queue.takeFull();
        if (!batch) {
            if (!queue.readerPaused()) {
                break;  // the end of the input (or a stop, or an error on the reading thread)
            }
            controls.checkpoint(engine);  // both threads at the same frame: the reader paused, every batch analysed
            queue.resume();
            pauseRequested = false;
            continue;
        }
        for (size_t i = 0; i < batch->count; ++i) {
            if (tracking) {
                engine.notify(batch->frames[i], batch->tracked[i]);
            } else {
                engine.pushPrepared(batch->frames[i]);
            }
        }
        frames += batch->count;
        if (controls.progress != nullptr) {
            controls.progress->bytesDone = batch->bytesDone;
            controls.progress->frames = frames;
        }
        const bool analysed = batch->count > 0;
        queue.recycle(std::move(batch));
        if (controls.checkpoint && analysed) {
            if (!tracking) {
                controls.checkpoint(engine);
            } else if (!pauseRequested && --batchesToCheckpoint == 0) {
                queue.requestPause();
                pauseRequested = true;
                checkpointGap = std::min(2 * checkpointGap, kMaxBatchesBetweenCheckpoints);
                batchesToCheckpoint = checkpointGap;
            }
        }
        // A tracking reader stops by itself; what it tracked is analysed here to the end.
        if (!tracking && stopRequested(controls.stop)) {
            break;
        }
    }
    if (const std::exception_ptr error = queue.readerError()) {
        std::rethrow_exception(error);
    }
    return frames;
}

// One thread: the progress and a checkpoint every kProgressEveryFrames frames.
void reportProgress(const FrameSource& source, const AnalysisEngine& engine, uint64_t frames,
                    const DriveControls& controls) {
    if (controls.progress != nullptr) {
        controls.progress->bytesDone = source.bytesConsumed();
        controls.progress->frames = frames;
    }
    if (controls.checkpoint) {
        controls.checkpoint(engine);
    }
}

// One thread, frame by frame: for a filter expression (it reads each frame's bytes before the
// analysis) and for an engine that retires connections (it cannot track a run ahead of its observers).
uint64_t analyseEachFrame(FrameSource& source, AnalysisEngine& engine, const DriveControls& controls) {
    uint64_t frames = 0;
    while (!stopRequested(controls.stop)) {
        const size_t pushed = source.pushNext(engine, kRunFrames);
        frames += pushed;
        if (pushed < kRunFrames) {
            break;
        }
        if (frames % kProgressEveryFrames == 0) {
            reportProgress(source, engine, frames, controls);
        }
    }
    return frames;
}

// One thread, a run of frames at a time: decoded, then tracked as a run (its lookups asked for
// ahead), then handed to the observers, with the same results as frame by frame.
uint64_t analyseInRuns(FrameSource& source, AnalysisEngine& engine, const DriveControls& controls) {
    std::vector<PreparedFrame> space(kRunFrames);
    std::vector<TrackedFrame> tracked(kRunFrames);
    uint64_t frames = 0;
    bool more = true;
    while (more) {
        const std::span<PreparedFrame> run =
            std::span(space).first(decodeRun(source, engine, controls.stop, space, more));
        engine.trackRun(run, std::span(tracked).first(run.size()));
        for (size_t i = 0; i < run.size(); ++i) {
            engine.notify(run[i], tracked[i]);
        }
        frames += run.size();
        if (run.size() == kRunFrames && frames % kProgressEveryFrames == 0) {
            reportProgress(source, engine, frames, controls);
        }
    }
    return frames;
}

}  // namespace

uint64_t driveFrames(FrameSource& source, AnalysisEngine& engine, const DriveControls& controls) {
    if (useReadingThread(engine, controls)) {
        return analyseWithReadingThread(source, engine, controls);
    }
    if (engine.hasFilter() || engine.retiresConnections()) {
        return analyseEachFrame(source, engine, controls);
    }
    return analyseInRuns(source, engine, controls);
}

}  // namespace tcpscope
