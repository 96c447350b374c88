#include "engine/capture_loader.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>

#include "engine/frame_driver.hpp"
#include "engine/input_summary_count.hpp"

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

void closeOut(OpenInput& input) {
    closeSummary(input.summary, *input.reader);
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

// The inputs merged in time order, as the frame driver takes them.
class MergedInputs final : public FrameSource {
public:
    explicit MergedInputs(std::vector<OpenInput>& inputs) : inputs_(inputs) {}

    size_t decodeNext(const AnalysisEngine& engine, std::span<PreparedFrame> frames) override {
        size_t count = 0;
        for (; count < frames.size(); ++count) {
            uint32_t index = 0;
            OpenInput* earliest = earliestInput(inputs_, index);
            if (earliest == nullptr) {
                break;
            }
            engine.decode(earliest->pending, index, frames[count]);
            advance(*earliest);
        }
        return count;
    }

    size_t pushNext(AnalysisEngine& engine, size_t count) override {
        size_t pushed = 0;
        for (; pushed < count; ++pushed) {
            uint32_t index = 0;
            OpenInput* earliest = earliestInput(inputs_, index);
            if (earliest == nullptr) {
                break;
            }
            engine.push(earliest->pending, index);
            advance(*earliest);
        }
        return pushed;
    }

    [[nodiscard]] uint64_t bytesConsumed() const override {
        uint64_t done = 0;
        for (const OpenInput& input : inputs_) {
            done += input.reader->bytesConsumed();
        }
        return done;
    }

private:
    std::vector<OpenInput>& inputs_;
};

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
    MergedInputs merged(inputs);
    driveFrames(merged, engine, DriveControls{progress, stop, checkpoint});
    engine.releaseTracking();
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
