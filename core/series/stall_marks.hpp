#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tcpscope {

/// A stretch of a chart's x (seconds since the capture start) where a connection stalled: a
/// finding's span on it.
struct StallSpan {
    double fromX = 0;
    double toX = 0;
};

/// What a chart draws for one or more stalls at its zoom: a mark from the first stall's start to
/// the last one's end (at least a few pixels wide), and how many stalls it stands for.
struct StallMark {
    double fromX = 0;
    double toX = 0;
    uint32_t stalls = 0;
};

/// The marks of `spans` (sorted by fromX) in [fromX, toX] drawn `columns` pixels wide: each stall
/// its own mark at least `minPixels` wide; stalls that overlap, lie closer than a pixel, or would
/// fall under the widened mark before them share one mark with their count. A mark never reaches
/// past its last stall's end by more than the widening, so no zoom shows a band where nothing
/// stalled. Marks are in order and do not overlap.
std::vector<StallMark> stallMarks(std::span<const StallSpan> spans, double fromX, double toX, size_t columns,
                                  double minPixels = 3);

}  // namespace tcpscope
