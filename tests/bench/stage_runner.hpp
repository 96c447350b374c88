#pragma once
// The benchmark's breakdown of where the time of an analysis goes (run_benchmark.sh --stages): the
// same captures read and decoded only, then also tracked with no detector. The stages are the
// benchmark's own: the production code has no switch for them.
#include <cstdint>
#include <string>
#include <vector>

namespace tcpscope::bench {

enum class Stage {
    /// Every frame read (files merged in time order) and decoded, copies recognised; nothing tracked.
    Decode,
    /// The analysis engine fed as an analysis feeds it (loadCaptures), with no detector watching.
    Track,
};

/// What a stage saw: enough to check that it did all of its own work.
struct StageCounts {
    uint64_t frames = 0;
    uint64_t tcp = 0;         ///< TCP segments decoded, copies left out
    uint64_t malformed = 0;
    uint64_t duplicates = 0;  ///< copies of a segment seen before (DuplicateFrames)
    uint64_t connections = 0; ///< tracked (Track only)
};

/// Runs `stage` over `paths` on this thread. Throws CaptureError if a file cannot be opened.
StageCounts runStage(const std::vector<std::string>& paths, Stage stage);

}  // namespace tcpscope::bench
