#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "series/chart_point.hpp"
#include "series/connection_rate.hpp"
#include "series/host_population_series.hpp"
#include "series/stretch_count.hpp"

namespace tcpscope {

/// What the capture-wide rows of the population view draw: the connection rate, and the
/// TIME_WAIT and ports-in-use series of the host whose count rose highest, as the detectors
/// kept them (HostPopulation), judged against its port range. Nothing here is counted again.
struct CapturePopulation {
    ConnectionAttempts attempts;
    /// Connections from their first SYN until their handshake completed (or their last SYN).
    StretchCount handshakesWaiting;
    IpAddress host;             ///< the host of `chart`
    HostPopulationChart chart;  ///< empty lines: no detector kept a population
    int64_t originNs = 0;       ///< x = 0 of every series

    /// The TIME_WAIT line of the highest peak, or null.
    [[nodiscard]] const PopulationLine* timeWait() const;
    /// The ports-in-use line of the highest peak, or null.
    [[nodiscard]] const PopulationLine* portsInUse() const;
    /// The count a row of these lines is drawn against: the port range when the data reaches a
    /// fifth of it, else the narrower range the client kept to, else the highest count.
    [[nodiscard]] double scaleTop() const;
    /// True when scaleTop() is the port range (its line is drawn).
    [[nodiscard]] bool capacityOnScale() const;
};

/// The capture-wide population of `analysis` (the attempts read from its packet index, the
/// populations its detectors handed out).
CapturePopulation capturePopulation(const CaptureAnalysis& analysis);

/// The highest y a staircase `points` (sorted by x) holds within each of `columns` columns of
/// `xPerColumn` from `fromX`; 0 where it has no point yet.
std::vector<double> stepColumnMaxima(std::span<const ChartPoint> points, double fromX, double xPerColumn,
                                     size_t columns);

}  // namespace tcpscope
