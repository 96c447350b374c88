#include "series/chart_point.hpp"

namespace tcpscope {

void appendStep(std::vector<ChartPoint>& points, double x, double y) {
    if (!points.empty()) {
        if (points.back().y == y) {
            return;  // no change: the line already holds this value
        }
        points.push_back({x, points.back().y});
    }
    points.push_back({x, y});
}

}  // namespace tcpscope
