#include "bench/stage_runner.hpp"

#include <memory>

#include "capture/capture_reader.hpp"
#include "decode/packet_decoder.hpp"
#include "engine/analysis_engine.hpp"
#include "engine/capture_loader.hpp"
#include "engine/duplicate_frames.hpp"

namespace tcpscope::bench {
namespace {

struct OpenFile {
    std::unique_ptr<CaptureReader> reader;
    RawPacket pending;
    bool hasPending = false;

    void advance() { hasPending = reader->next(pending); }
};

// Reads the files merged in time order (ties: the file given first), as loadCaptures does, and
// decodes each frame as the engine does, without tracking it.
StageCounts decodeOnly(const std::vector<std::string>& paths) {
    std::vector<OpenFile> files(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
        files[i].reader = CaptureReader::open(paths[i]);
        files[i].advance();
    }
    StageCounts counts;
    DuplicateFrames duplicates;
    TcpSegment segment;
    while (true) {
        OpenFile* earliest = nullptr;
        for (OpenFile& file : files) {
            if (file.hasPending && (earliest == nullptr || file.pending.tsNs < earliest->pending.tsNs)) {
                earliest = &file;
            }
        }
        if (earliest == nullptr) {
            break;
        }
        ++counts.frames;
        const DecodeStatus status = decodePacket(earliest->pending, segment);
        if (status == DecodeStatus::Malformed) {
            ++counts.malformed;
        } else if (status == DecodeStatus::Tcp) {
            if (duplicates.isCopy(segment, earliest->pending.tsNs)) {
                ++counts.duplicates;
            } else {
                ++counts.tcp;
            }
        }
        earliest->advance();
    }
    return counts;
}

StageCounts trackOnly(const std::vector<std::string>& paths) {
    AnalysisEngine engine{EngineOptions{}};
    loadCaptures(paths, engine);
    StageCounts counts;
    counts.frames = engine.counters().frames;
    counts.tcp = engine.counters().tcp;
    counts.malformed = engine.counters().malformed;
    counts.duplicates = engine.counters().duplicates;
    counts.connections = engine.connections().size();
    return counts;
}

}  // namespace

StageCounts runStage(const std::vector<std::string>& paths, Stage stage) {
    return stage == Stage::Decode ? decodeOnly(paths) : trackOnly(paths);
}

}  // namespace tcpscope::bench
