#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capture/capture_reader.hpp"
#include "engine/analysis_engine.hpp"
#include "engine/frame_driver.hpp"
#include "engine/load_progress.hpp"

namespace tcpscope {

/// What was read from one input file.
struct InputSummary {
    std::string path;
    CaptureFormat format;
    uint64_t frames = 0;
    uint64_t bytes = 0;                  ///< file bytes consumed
    std::vector<uint32_t> linkTypes;     ///< link types of its frames, in order of first use
    std::vector<InputProblem> warnings;  ///< non-fatal: a file cut short, a bad option
    std::vector<InputProblem> errors;    ///< reading stopped here; earlier frames were kept
    std::optional<CutShort> cutShort;    ///< the file ends inside a record: the capture was cut short
    std::vector<std::string> comments;   ///< section comments of a pcapng file
};

/// Reads one or more capture files into `engine`, merged in time order (ties keep the order the
/// files were given), through the frame driver (driveFrames). Throws CaptureError if a file
/// cannot be opened or is not a capture; a problem later in a file ends that file only and is
/// kept in its summary. `progress`, `stop` and `checkpoint` may be null. When the files are read,
/// frees the engine's tracking (AnalysisEngine::releaseTracking) and then finishes it: no frame
/// may be pushed into `engine` after.
std::vector<InputSummary> loadCaptures(const std::vector<std::string>& paths, AnalysisEngine& engine,
                                       LoadProgress* progress = nullptr, const StopToken* stop = nullptr,
                                       const LoadCheckpoint& checkpoint = {});

}  // namespace tcpscope
