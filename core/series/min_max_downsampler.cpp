#include "series/min_max_downsampler.hpp"

#include <algorithm>
#include <cmath>

namespace tcpscope {

std::vector<ChartPoint> downsampleMinMax(std::span<const ChartPoint> points, double fromX, double toX, size_t columns) {
    std::vector<ChartPoint> kept;
    if (columns == 0 || !(toX > fromX) || points.empty()) {
        return kept;
    }
    const auto byX = [](const ChartPoint& point, double x) { return point.x < x; };
    const auto first = std::lower_bound(points.begin(), points.end(), fromX, byX);
    const auto last = std::upper_bound(points.begin(), points.end(), toX,
                                       [](double x, const ChartPoint& point) { return x < point.x; });
    kept.reserve(std::min<size_t>(static_cast<size_t>(last - first), 2 * columns) + 2);
    if (first != points.begin()) {
        kept.push_back(*(first - 1));
    }
    const double columnsPerX = static_cast<double>(columns) / (toX - fromX);
    auto columnOf = [&](double x) {
        return std::min(static_cast<size_t>(std::max(0.0, std::floor((x - fromX) * columnsPerX))), columns - 1);
    };
    for (auto begin = first; begin != last;) {
        const size_t column = columnOf(begin->x);
        auto lowest = begin;
        auto highest = begin;
        auto end = begin + 1;
        for (; end != last && columnOf(end->x) == column; ++end) {
            if (end->y < lowest->y) {
                lowest = end;
            }
            if (end->y > highest->y) {
                highest = end;
            }
        }
        kept.push_back(*std::min(lowest, highest));
        if (lowest != highest) {
            kept.push_back(*std::max(lowest, highest));
        }
        begin = end;
    }
    if (last != points.end()) {
        kept.push_back(*last);
    }
    return kept;
}

}  // namespace tcpscope
