#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "series/chart_point.hpp"

namespace tcpscope {

/// What an interval graph adds up per interval: packets (events) or bytes (the events' y).
enum class IntervalMeasure { Packets, Bytes };

/// The first of `bins` (ascending, seconds) at least `minPixels` wide on [fromX, toX] drawn
/// `columns` wide; the last when none is, 1 s for an empty range or no columns.
double firstBinAtLeast(std::span<const double> bins, double fromX, double toX, size_t columns, double minPixels);

/// Wireshark's I/O graph intervals, from the zoom: the smallest of 1 ms, 10 ms, 100 ms, 1 s and
/// 10 s that makes an interval at least `minPixels` wide on [fromX, toX] drawn `columns` wide
/// (10 s when none does).
double ioIntervalSeconds(double fromX, double toX, size_t columns, double minPixels = 4);

/// "1 ms", "100 ms", "10 s": an interval as Wireshark's interval chooser names it.
std::string intervalName(double intervalSeconds);

/// The total of `events` (x: seconds, sorted; y: bytes) per interval of `intervalSeconds` aligned
/// on multiples of it, over [fromX, toX], as a staircase (two points per interval): the number of
/// events for Packets, the sum of their y for Bytes. Empty for more than a million intervals.
std::vector<ChartPoint> intervalTotals(std::span<const ChartPoint> events, IntervalMeasure measure, double fromX,
                                       double toX, double intervalSeconds);

/// The same totals as a moving average over the last `averageIntervals` intervals (Wireshark's
/// "MA" of its throughput and I/O graphs), one point per interval at its end, drawn as a line;
/// until `averageIntervals` have passed since the first event, the average of those since.
std::vector<ChartPoint> movingAverage(std::span<const ChartPoint> events, IntervalMeasure measure, double fromX,
                                      double toX, double intervalSeconds, size_t averageIntervals);

}  // namespace tcpscope
