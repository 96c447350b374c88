#pragma once
#include <cstdint>
#include <vector>

namespace tcpscope {

/// One point of a chart: x in seconds since the capture's first frame, y in the series' unit.
struct ChartPoint {
    double x = 0;
    double y = 0;
    bool operator==(const ChartPoint&) const = default;
};

/// Seconds from `originNs` to `tsNs`.
inline double secondsSince(int64_t originNs, int64_t tsNs) {
    return static_cast<double>(tsNs - originNs) * 1e-9;
}

/// Appends a step to `points`: the value so far held until `x`, then `y` from `x` on, so a line
/// through the points draws a staircase (counts, ACK numbers and windows change in steps).
void appendStep(std::vector<ChartPoint>& points, double x, double y);

}  // namespace tcpscope
