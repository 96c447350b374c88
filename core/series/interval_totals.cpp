#include "series/interval_totals.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace tcpscope {

namespace {

constexpr double kMaxIntervals = 1 << 20;  // a chart asks for about one interval per few pixels

// The totals per interval from the interval holding fromX to the one holding toX.
std::vector<double> totalsPerInterval(std::span<const ChartPoint> events, IntervalMeasure measure, double firstStart,
                                      size_t intervals, double intervalSeconds) {
    std::vector<double> totals(intervals, 0.0);
    const auto byX = [](const ChartPoint& point, double x) { return point.x < x; };
    auto next = std::lower_bound(events.begin(), events.end(), firstStart, byX);
    for (size_t interval = 0; interval < intervals && next != events.end(); ++interval) {
        const double end = firstStart + static_cast<double>(interval + 1) * intervalSeconds;
        const auto after = std::lower_bound(next, events.end(), end, byX);
        if (measure == IntervalMeasure::Packets) {
            totals[interval] = static_cast<double>(after - next);
        } else {
            for (auto event = next; event != after; ++event) {
                totals[interval] += event->y;
            }
        }
        next = after;
    }
    return totals;
}

// The start of the interval holding `fromX` and the number of intervals up to `toX`; 0 intervals
// when the range is empty or would need too many.
std::pair<double, size_t> intervalsOf(double fromX, double toX, double intervalSeconds) {
    if (!(toX > fromX) || !(intervalSeconds > 0)) {
        return {0, 0};
    }
    const double firstStart = std::floor(fromX / intervalSeconds) * intervalSeconds;
    const double wanted = std::ceil((toX - firstStart) / intervalSeconds);
    if (wanted > kMaxIntervals) {
        return {0, 0};
    }
    return {firstStart, static_cast<size_t>(std::max(wanted, 1.0))};
}

}  // namespace

double firstBinAtLeast(std::span<const double> bins, double fromX, double toX, size_t columns, double minPixels) {
    if (columns == 0 || !(toX > fromX) || bins.empty()) {
        return 1.0;
    }
    const double secondsPerPixel = (toX - fromX) / static_cast<double>(columns);
    for (const double bin : bins) {
        if (bin >= secondsPerPixel * minPixels) {
            return bin;
        }
    }
    return bins.back();
}

double ioIntervalSeconds(double fromX, double toX, size_t columns, double minPixels) {
    static constexpr std::array kIntervals{0.001, 0.01, 0.1, 1.0, 10.0};
    return firstBinAtLeast(kIntervals, fromX, toX, columns, minPixels);
}

std::string intervalName(double intervalSeconds) {
    if (intervalSeconds < 1) {
        return fmt::format("{:g} ms", intervalSeconds * 1000);
    }
    return fmt::format("{:g} s", intervalSeconds);
}

std::vector<ChartPoint> intervalTotals(std::span<const ChartPoint> events, IntervalMeasure measure, double fromX,
                                       double toX, double intervalSeconds) {
    const auto [firstStart, intervals] = intervalsOf(fromX, toX, intervalSeconds);
    const std::vector<double> totals = totalsPerInterval(events, measure, firstStart, intervals, intervalSeconds);
    std::vector<ChartPoint> points;
    points.reserve(2 * totals.size());
    for (size_t interval = 0; interval < totals.size(); ++interval) {
        const double start = firstStart + static_cast<double>(interval) * intervalSeconds;
        points.push_back({start, totals[interval]});
        points.push_back({start + intervalSeconds, totals[interval]});
    }
    return points;
}

std::vector<ChartPoint> movingAverage(std::span<const ChartPoint> events, IntervalMeasure measure, double fromX,
                                      double toX, double intervalSeconds, size_t averageIntervals) {
    averageIntervals = std::max<size_t>(averageIntervals, 1);
    // The average at the range's first interval reads the intervals before it too.
    const double lead = static_cast<double>(averageIntervals - 1) * intervalSeconds;
    const auto [firstStart, intervals] = intervalsOf(fromX - lead, toX, intervalSeconds);
    const std::vector<double> totals = totalsPerInterval(events, measure, firstStart, intervals, intervalSeconds);
    const double firstEventX = events.empty() ? firstStart : events.front().x;
    std::vector<ChartPoint> points;
    double windowSum = 0;
    for (size_t interval = 0; interval < totals.size(); ++interval) {
        windowSum += totals[interval];
        if (interval >= averageIntervals) {
            windowSum -= totals[interval - averageIntervals];
        }
        const double end = firstStart + static_cast<double>(interval + 1) * intervalSeconds;
        if (end >= fromX && end > firstEventX) {
            // From the first event on: the intervals before the data began are not averaged in.
            const double elapsed = std::ceil((end - firstEventX) / intervalSeconds);
            const double counted = std::clamp(elapsed, 1.0, static_cast<double>(averageIntervals));
            points.push_back({end, windowSum / counted});
        }
    }
    return points;
}

}  // namespace tcpscope
