#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "series/chart_point.hpp"

namespace tcpscope {

/// Reduces `points` (sorted by x) to what `columns` pixel columns spanning [fromX, toX] can show:
/// each column keeps its lowest and highest point, in their order, so spikes and dips survive;
/// the last point before the range and the first after it are kept too, so lines run on to the
/// edges. At most 2 * columns + 2 points; a column with one point keeps it as it is, so a
/// zoomed-in view shows the real points. Empty for an empty range or no columns.
std::vector<ChartPoint> downsampleMinMax(std::span<const ChartPoint> points, double fromX, double toX, size_t columns);

}  // namespace tcpscope
