#include "engine/capture_loader.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <optional>
#include <span>
#include <thread>

#include "engine/batch_queue.hpp"
#include "engine/input_summary_count.hpp"
#include "engine/worker_threads.hpp"

namespace tcpscope {

namespace {

// One open input and the frame it has ready: the frame's bytes stay valid until that reader's
// next() call, so merging several files needs no copying.
struct OpenInput {
    std::unique_ptr<CaptureReader> reader;
    RawPacket pending;
    bool hasPending = false;
    InputSummary summary;
    int64_t shiftNs = 0;  // from the reader's time origin to the one the inputs share
};

void advance(OpenInput& input) {
    input.hasPending = input.reader->next(input.pending);
    if (!input.hasPending) {
        return;
    }
    if (input.shiftNs != 0) {
        input.pending.tsNs = heldSumNs(input.pending.tsNs, input.shiftNs, kPacketTimeReachNs);
    }
    countFrame(input.summary, input.pending.linkType);
}

// The origin every input's times are put on (the epoch unless the earliest first packet lies far
// from it), and each input's shift to it. Called with each input's first frame pending.
TimeOrigin shareTimeOrigin(std::vector<OpenInput>& inputs) {
    std::optional<EpochTime> earliest;
    for (const OpenInput& input : inputs) {
        if (input.hasPending) {
            const EpochTime first = input.reader->timeOrigin().absolute(input.pending.tsNs);
            earliest = earliest ? std::min(*earliest, first) : first;
        }
    }
    const TimeOrigin shared = earliest ? TimeOrigin::forFirstPacket(*earliest) : TimeOrigin{};
    for (OpenInput& input : inputs) {
        const TimeOrigin own = input.reader->timeOrigin();
        if (own == shared) {
            continue;
        }
        const std::optional<int64_t> shift = shared.shiftFromNs(own);
        if (!shift || heldPacketTimeNs(*shift) != *shift) {
            input.summary.warnings.push_back(InputProblem{input.summary.path, 0,
                                                          "its packets are more than 146 years after the first "
                                                          "file's; their times are held at the limit"});
        }
        input.shiftNs = shift.value_or(std::numeric_limits<int64_t>::max());
        if (input.hasPending) {
            input.pending.tsNs = heldSumNs(input.pending.tsNs, input.shiftNs, kPacketTimeReachNs);
        }
    }
    return shared;
}

void closeOut(OpenInput& input) { closeSummary(input.summary, *input.reader); }

// The input whose pending frame comes first (ties: the input given first), or null at the end.
// A linear scan is fine: one input is the common case and a few is the rare one.
OpenInput* earliestInput(std::vector<OpenInput>& inputs, uint32_t& index) {
    OpenInput* earliest = nullptr;
    for (uint32_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].hasPending && (earliest == nullptr || inputs[i].pending.tsNs < earliest->pending.tsNs)) {
            earliest = &inputs[i];
            index = i;
        }
    }
    return earliest;
}

uint64_t bytesConsumed(const std::vector<OpenInput>& inputs) {
    uint64_t done = 0;
    for (const OpenInput& input : inputs) {
        done += input.reader->bytesConsumed();
    }
    return done;
}

// Progress and checkpoints on one thread: as often as a batch of the reading thread is handed over.
constexpr uint64_t kProgressEveryFrames = FrameBatch::kFrames;

// Frames are decoded this many at a time, then their tuples numbered (and their connections tracked)
// as a run, so that a run's hash-table and connection lookups can be asked for ahead (AnalysisEngine::trackRun).
constexpr size_t kRunFrames = 64;
static_assert(FrameBatch::kFrames % kRunFrames == 0 && kProgressEveryFrames % kRunFrames == 0);

// Reads and decodes the next frames of the merged inputs into `run`, up to its size; returns how
// many. Sets `more` to false at the end of the input or on a stop request.
size_t decodeRun(std::vector<OpenInput>& inputs, const AnalysisEngine& engine, const StopToken* stop,
                 std::span<PreparedFrame> run, bool& more) {
    size_t count = 0;
    while (count < run.size()) {
        uint32_t index = 0;
        OpenInput* earliest = earliestInput(inputs, index);
        if (earliest == nullptr || (stop != nullptr && stop->stopRequested())) {
            more = false;
            break;
        }
        engine.decode(earliest->pending, index, run[count]);
        ++count;
        advance(*earliest);
    }
    return count;
}

// Reading thread: reads, decodes and numbers the tuples of the merged inputs into batches until the
// end or a stop; with `tracking`, also tracks their connections and indexes them (AnalysisEngine::trackRun).
void readBatches(std::vector<OpenInput>& inputs, AnalysisEngine& engine, BatchQueue& queue, const StopToken* stop,
                 bool tracking) {
    bool more = true;
    while (more) {
        std::unique_ptr<FrameBatch> batch = queue.takeEmpty();
        if (!batch) {
            break;
        }
        batch->count = 0;
        while (more && batch->count < batch->frames.size() && !queue.pauseRequested()) {
            const std::span<PreparedFrame> space(batch->frames.data() + batch->count, kRunFrames);
            const std::span<PreparedFrame> run = space.first(decodeRun(inputs, engine, stop, space, more));
            const size_t runStart = batch->count;
            batch->count += run.size();
            if (tracking) {
                engine.trackRun(run, std::span(batch->tracked.data() + runStart, run.size()));
            } else {
                engine.numberTuples(run);
            }
        }
        batch->bytesDone = bytesConsumed(inputs);
        queue.pushFull(std::move(batch));
        if (more && queue.pauseRequested()) {
            queue.pause();
        }
    }
    queue.finishReading();
}

// The reading thread's body: an exception ends the reading and is rethrown on the analysing thread.
void runReader(std::vector<OpenInput>& inputs, AnalysisEngine& engine, BatchQueue& queue, const StopToken* stop,
               bool tracking) {
    try {
        readBatches(inputs, engine, queue, stop, tracking);
    } catch (...) {
        queue.finishReading(std::current_exception());
    }
}

// Two threads: this one analyses what a reading thread has read and decoded. Used when the
// engine has no filter (the filter reads the frame's bytes on the engine's side) and a second
// thread is allowed (a second core, TCPSCOPE_THREADS not 1).
bool useReadingThread(const AnalysisEngine& engine) { return !engine.hasFilter() && secondThreadAllowed(); }

// When the reading thread tracks, the engine is at rest for a checkpoint only once the reader has
// paused and this thread has caught up with it, which costs both threads a little: checkpoints come
// after the first batch, then after twice as many batches each time, up to this many.
constexpr uint32_t kMaxBatchesBetweenCheckpoints = 64;

// The split of the work: the reading thread reads, decodes and (unless the engine retires
// connections: retiring calls the observers while tracking) tracks the connections and indexes the
// packets; this thread hands the tracked segments to the observers (the detectors), or runs the
// whole in-order analysis when the reader does not track.
void analyseWithReadingThread(std::vector<OpenInput>& inputs, AnalysisEngine& engine, LoadProgress* progress,
                              const StopToken* stop, const LoadCheckpoint& checkpoint) {
    const bool tracking = !engine.retiresConnections();
    BatchQueue queue(tracking);
    std::thread reader(runReader, std::ref(inputs), std::ref(engine), std::ref(queue), stop, tracking);
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
            checkpoint(engine);  // both threads at the same frame: the reader paused, every batch analysed
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
        if (progress != nullptr) {
            progress->bytesDone = batch->bytesDone;
            progress->frames = frames;
        }
        const bool analysed = batch->count > 0;
        queue.recycle(std::move(batch));
        if (checkpoint && analysed) {
            if (!tracking) {
                checkpoint(engine);
            } else if (!pauseRequested && --batchesToCheckpoint == 0) {
                queue.requestPause();
                pauseRequested = true;
                checkpointGap = std::min(2 * checkpointGap, kMaxBatchesBetweenCheckpoints);
                batchesToCheckpoint = checkpointGap;
            }
        }
        // A tracking reader stops by itself; what it tracked is analysed here to the end.
        if (!tracking && stop != nullptr && stop->stopRequested()) {
            break;
        }
    }
    if (const std::exception_ptr error = queue.readerError()) {
        std::rethrow_exception(error);
    }
}

// One thread: the progress and a checkpoint every kProgressEveryFrames frames.
void reportProgress(const std::vector<OpenInput>& inputs, const AnalysisEngine& engine, uint64_t frames,
                    LoadProgress* progress, const LoadCheckpoint& checkpoint) {
    if (progress != nullptr) {
        progress->bytesDone = bytesConsumed(inputs);
        progress->frames = frames;
    }
    if (checkpoint) {
        checkpoint(engine);
    }
}

// One thread, frame by frame: for a filter expression (it reads each frame's bytes before the
// analysis) and for an engine that retires connections (it cannot track a run ahead of its observers).
void analyseEachFrame(std::vector<OpenInput>& inputs, AnalysisEngine& engine, LoadProgress* progress,
                      const StopToken* stop, const LoadCheckpoint& checkpoint) {
    uint64_t frames = 0;
    while (true) {
        uint32_t index = 0;
        OpenInput* earliest = earliestInput(inputs, index);
        if (earliest == nullptr || (stop != nullptr && stop->stopRequested())) {
            break;
        }
        engine.push(earliest->pending, index);
        advance(*earliest);
        if ((++frames % kProgressEveryFrames) == 0) {
            reportProgress(inputs, engine, frames, progress, checkpoint);
        }
    }
}

// One thread, a run of frames at a time: decoded, then tracked as a run (its lookups asked for
// ahead), then handed to the observers, with the same results as frame by frame.
void analyseInRuns(std::vector<OpenInput>& inputs, AnalysisEngine& engine, LoadProgress* progress,
                   const StopToken* stop, const LoadCheckpoint& checkpoint) {
    std::vector<PreparedFrame> space(kRunFrames);
    std::vector<TrackedFrame> tracked(kRunFrames);
    uint64_t frames = 0;
    bool more = true;
    while (more) {
        const std::span<PreparedFrame> run = std::span(space).first(decodeRun(inputs, engine, stop, space, more));
        engine.trackRun(run, std::span(tracked).first(run.size()));
        for (size_t i = 0; i < run.size(); ++i) {
            engine.notify(run[i], tracked[i]);
        }
        frames += run.size();
        if (run.size() == kRunFrames && frames % kProgressEveryFrames == 0) {
            reportProgress(inputs, engine, frames, progress, checkpoint);
        }
    }
}

void analyseInThisThread(std::vector<OpenInput>& inputs, AnalysisEngine& engine, LoadProgress* progress,
                         const StopToken* stop, const LoadCheckpoint& checkpoint) {
    if (engine.hasFilter() || engine.retiresConnections()) {
        analyseEachFrame(inputs, engine, progress, stop, checkpoint);
    } else {
        analyseInRuns(inputs, engine, progress, stop, checkpoint);
    }
}

}  // namespace

void countFrame(InputSummary& summary, uint32_t linkType) {
    ++summary.frames;
    auto& seen = summary.linkTypes;
    if (seen.empty() || (seen.back() != linkType && std::find(seen.begin(), seen.end(), linkType) == seen.end())) {
        seen.push_back(linkType);
    }
}

void closeSummary(InputSummary& summary, const CaptureReader& reader) {
    summary.format = reader.format();
    summary.bytes = reader.bytesConsumed();
    summary.warnings.insert(summary.warnings.begin(), reader.warnings().begin(), reader.warnings().end());
    if (const InputProblem* problem = reader.error()) {
        summary.errors.push_back(*problem);
    }
    summary.comments = reader.sectionComments();
    summary.cutShort = reader.cutShort();
}

std::vector<InputSummary> loadCaptures(const std::vector<std::string>& paths, AnalysisEngine& engine,
                                       LoadProgress* progress, const StopToken* stop,
                                       const LoadCheckpoint& checkpoint) {
    std::vector<OpenInput> inputs(paths.size());
    uint64_t totalBytes = 0;
    for (size_t i = 0; i < paths.size(); ++i) {
        inputs[i].reader = CaptureReader::open(paths[i]);
        inputs[i].summary.path = paths[i];
        totalBytes += inputs[i].reader->fileSize();
    }
    if (progress != nullptr) {
        progress->bytesTotal = totalBytes;
    }
    for (OpenInput& input : inputs) {
        advance(input);
    }
    engine.setTimeOrigin(shareTimeOrigin(inputs));
    if (useReadingThread(engine)) {
        analyseWithReadingThread(inputs, engine, progress, stop, checkpoint);
    } else {
        analyseInThisThread(inputs, engine, progress, stop, checkpoint);
    }
    engine.finish();

    std::vector<InputSummary> summaries;
    summaries.reserve(inputs.size());
    uint64_t done = 0;
    for (OpenInput& input : inputs) {
        closeOut(input);
        done += input.summary.bytes;
        summaries.push_back(std::move(input.summary));
    }
    if (progress != nullptr) {
        progress->bytesDone = done;
        progress->frames = engine.counters().frames;
        progress->finished = true;
    }
    return summaries;
}

}  // namespace tcpscope
