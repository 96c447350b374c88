#include "engine/capture_loader.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

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
};

void advance(OpenInput& input) {
    input.hasPending = input.reader->next(input.pending);
    if (!input.hasPending) {
        return;
    }
    ++input.summary.frames;
    const uint32_t linkType = input.pending.linkType;
    auto& seen = input.summary.linkTypes;
    if (seen.empty() || (seen.back() != linkType && std::find(seen.begin(), seen.end(), linkType) == seen.end())) {
        seen.push_back(linkType);
    }
}

void closeOut(OpenInput& input) {
    const CaptureReader& reader = *input.reader;
    input.summary.format = reader.format();
    input.summary.bytes = reader.bytesConsumed();
    input.summary.warnings = reader.warnings();
    if (const InputProblem* problem = reader.error()) {
        input.summary.errors.push_back(*problem);
    }
    input.summary.comments = reader.sectionComments();
}

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

constexpr uint64_t kProgressEveryFrames = 4096;

// Frames decoded by the reading thread, handed to the analysing thread in one piece.
struct FrameBatch {
    std::vector<PreparedFrame> frames = std::vector<PreparedFrame>(kProgressEveryFrames);
    size_t count = 0;
    uint64_t bytesDone = 0;  // input bytes consumed once this batch was read
};

// A bounded hand-over of batches: a fixed number circulate between the reading thread (fills an
// empty one) and the analysing thread (empties a full one), so memory stays flat and the reader
// never runs more than a few batches ahead.
class BatchQueue {
public:
    static constexpr size_t kBatches = 4;

    BatchQueue() {
        for (size_t i = 0; i < kBatches; ++i) {
            free_.push_back(std::make_unique<FrameBatch>());
        }
    }

    // Reader side: an empty batch, or null once the analysing side has given up.
    std::unique_ptr<FrameBatch> takeEmpty() { return take(free_); }
    void pushFull(std::unique_ptr<FrameBatch> batch) { give(full_, std::move(batch)); }
    void finishReading() { raise(readingDone_); }
    // Analysing side: the next full batch, or null at the end of the input.
    std::unique_ptr<FrameBatch> takeFull() { return take(full_); }
    void recycle(std::unique_ptr<FrameBatch> batch) { give(free_, std::move(batch)); }
    void cancel() { raise(cancelled_); }

private:
    void raise(bool& flag) {
        const std::lock_guard lock(mutex_);
        flag = true;
        changed_.notify_all();
    }
    std::unique_ptr<FrameBatch> take(std::deque<std::unique_ptr<FrameBatch>>& from) {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !from.empty() || cancelled_ || (&from == &full_ && readingDone_); });
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
    bool readingDone_ = false;
    bool cancelled_ = false;
};

// Reading thread: reads, decodes and numbers the tuples of the merged inputs into batches until the
// end or a stop.
void readBatches(std::vector<OpenInput>& inputs, AnalysisEngine& engine, BatchQueue& queue, const StopToken* stop) {
    bool more = true;
    while (more) {
        std::unique_ptr<FrameBatch> batch = queue.takeEmpty();
        if (!batch) {
            break;
        }
        batch->count = 0;
        while (batch->count < batch->frames.size()) {
            uint32_t index = 0;
            OpenInput* earliest = earliestInput(inputs, index);
            if (earliest == nullptr || (stop != nullptr && stop->stopRequested())) {
                more = false;
                break;
            }
            engine.prepare(earliest->pending, index, batch->frames[batch->count++]);
            advance(*earliest);
        }
        batch->bytesDone = bytesConsumed(inputs);
        queue.pushFull(std::move(batch));
    }
    queue.finishReading();
}

// Two threads: this one analyses what a reading thread has read and decoded. Used when the
// engine has no filter (the filter reads the frame's bytes on the engine's side) and a second
// thread is allowed (a second core, TCPSCOPE_THREADS not 1).
bool useReadingThread(const AnalysisEngine& engine) { return !engine.hasFilter() && secondThreadAllowed(); }

void analyseWithReadingThread(std::vector<OpenInput>& inputs, AnalysisEngine& engine, LoadProgress* progress,
                              const StopToken* stop, const LoadCheckpoint& checkpoint) {
    BatchQueue queue;
    std::thread reader(readBatches, std::ref(inputs), std::ref(engine), std::ref(queue), stop);
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
    while (std::unique_ptr<FrameBatch> batch = queue.takeFull()) {
        for (size_t i = 0; i < batch->count; ++i) {
            engine.pushPrepared(batch->frames[i]);
        }
        frames += batch->count;
        if (progress != nullptr) {
            progress->bytesDone = batch->bytesDone;
            progress->frames = frames;
        }
        if (checkpoint && batch->count > 0) {
            checkpoint(engine);
        }
        queue.recycle(std::move(batch));
        if (stop != nullptr && stop->stopRequested()) {
            break;
        }
    }
}

void analyseInThisThread(std::vector<OpenInput>& inputs, AnalysisEngine& engine, LoadProgress* progress,
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
            if (progress != nullptr) {
                progress->bytesDone = bytesConsumed(inputs);
                progress->frames = frames;
            }
            if (checkpoint) {
                checkpoint(engine);
            }
        }
    }
}

}  // namespace

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
