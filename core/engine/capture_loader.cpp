#include "engine/capture_loader.hpp"

#include <algorithm>

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

    constexpr uint64_t kProgressEveryFrames = 4096;
    uint64_t frames = 0;
    while (true) {
        // A linear scan is fine: one input is the common case and a few is the rare one.
        OpenInput* earliest = nullptr;
        uint32_t earliestIndex = 0;
        for (uint32_t i = 0; i < inputs.size(); ++i) {
            if (inputs[i].hasPending && (earliest == nullptr || inputs[i].pending.tsNs < earliest->pending.tsNs)) {
                earliest = &inputs[i];
                earliestIndex = i;
            }
        }
        if (earliest == nullptr || (stop != nullptr && stop->stopRequested())) {
            break;
        }
        engine.push(earliest->pending, earliestIndex);
        advance(*earliest);
        if ((++frames % kProgressEveryFrames) == 0) {
            if (progress != nullptr) {
                uint64_t done = 0;
                for (const OpenInput& input : inputs) {
                    done += input.reader->bytesConsumed();
                }
                progress->bytesDone = done;
                progress->frames = frames;
            }
            if (checkpoint) {
                checkpoint(engine);
            }
        }
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
