#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "series/chart_point.hpp"

namespace tcpscope {

/// One line of the "TIME_WAIT and ports of a host" chart, from a series a detector kept.
struct PopulationLine {
    HostPopulation::Kind kind = HostPopulation::Kind::TimeWait;
    std::string label;               ///< e.g. "TIME_WAIT (as client)", "ports in use to 10.0.0.2:3306"
    std::vector<ChartPoint> points;  ///< a staircase of the highest count per stored bucket
    int64_t peak = 0;
};

/// What the chart of one host shows: its TIME_WAIT population and the ephemeral ports it holds
/// per server, with the port range they are judged against.
struct HostPopulationChart {
    std::vector<PopulationLine> lines;  ///< TIME_WAIT lines first, then ports in use by peak
    uint32_t capacityPorts = 0;         ///< size of the ephemeral port range (0: nothing to show)
    uint16_t portRangeLow = 0;
    uint16_t portRangeHigh = 0;
    /// The range of client ports seen towards one server, when the client kept to fewer ports
    /// than the range (a bind() range, a small ip_local_port_range) and nearly filled them: the
    /// limit it ran into (0: none).
    uint32_t observedRangePorts = 0;
    int64_t peak = 0;  ///< the highest count of any line
};

/// The chart of `host` from `analysis.populations`: x in seconds since the capture's first
/// frame, until its last. At most `maxPortLines` ports-in-use lines (the highest peaks).
HostPopulationChart hostPopulationChart(const CaptureAnalysis& analysis, const IpAddress& host,
                                        size_t maxPortLines = 4);
/// The same from `populations` (a live capture's so far), x from `originNs` until `endNs`.
HostPopulationChart hostPopulationChart(std::span<const HostPopulation> populations, const IpAddress& host,
                                        int64_t originNs, int64_t endNs, size_t maxPortLines = 4);

/// The series as a staircase: each stored bucket's highest count from its start (to the
/// millisecond), held until `endTsNs`.
std::vector<ChartPoint> populationPoints(const PopulationSeries& series, int64_t originNs, int64_t endTsNs);

}  // namespace tcpscope
