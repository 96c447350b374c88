#include "series/stall_marks.hpp"

#include <algorithm>

namespace tcpscope {

std::vector<StallMark> stallMarks(std::span<const StallSpan> spans, double fromX, double toX, size_t columns,
                                  double minPixels) {
    std::vector<StallMark> marks;
    if (columns == 0 || !(toX > fromX)) {
        return marks;
    }
    const double pixel = (toX - fromX) / static_cast<double>(columns);
    const double minWidth = pixel * minPixels;
    // Stalls are few (one per finding span): every one is looked at, so a long stall that began
    // before the range still draws.
    auto next = spans.begin();
    for (; next != spans.end() && next->fromX <= toX; ++next) {
        const double end = std::max(next->toX, next->fromX);
        if (std::max(end, next->fromX + minWidth) < fromX) {
            continue;
        }
        if (!marks.empty()) {
            StallMark& last = marks.back();
            // Closer than a pixel to the stalls before it, or under that mark's widened end: the same mark.
            if (next->fromX < std::max(last.toX, last.fromX + minWidth) + pixel) {
                last.toX = std::max(last.toX, end);
                ++last.stalls;
                continue;
            }
        }
        marks.push_back({next->fromX, end, 1});
    }
    for (StallMark& mark : marks) {
        mark.toX = std::max(mark.toX, mark.fromX + minWidth);
    }
    return marks;
}

}  // namespace tcpscope
