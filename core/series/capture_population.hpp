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

/// The port pool of one host as the capture-wide rows draw it: its TIME_WAIT and ports-in-use
/// series as the detectors kept them (HostPopulation), judged against its own port range.
struct HostPortPool {
    IpAddress host;             ///< the host of `chart`
    HostPopulationChart chart;  ///< empty lines: no detector kept a population

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

/// A client host's ports towards one server are worth a row of their own from this many at once.
inline constexpr int64_t kPortPoolWorthCharting = 10;
/// The capture-wide rows show the port pools of at most this many hosts (two rows each).
inline constexpr size_t kPortPoolHostsShown = 3;

/// What the capture-wide rows of the population view draw: the connection rate, the handshakes
/// waiting, and the port pools of the hosts worth charting. Nothing here is counted again.
struct CapturePopulation {
    ConnectionAttempts attempts;
    /// Connections from their first SYN until their handshake completed (or their last SYN).
    StretchCount handshakesWaiting;
    /// The host whose count rose highest (its TIME_WAIT as client or server, or its ports), then
    /// the other client hosts whose ports towards one server reached kPortPoolWorthCharting, by peak.
    std::vector<HostPortPool> hosts;
    /// Client hosts with a port pool worth charting left out of `hosts` (beyond kPortPoolHostsShown).
    size_t hostsLeftOut = 0;
    int64_t originNs = 0;  ///< x = 0 of every series

    /// The busiest host's pool (hosts.front()), or null.
    [[nodiscard]] const HostPortPool* busiest() const { return hosts.empty() ? nullptr : &hosts.front(); }
};

/// The capture-wide population of `analysis` (the attempts read from its packet index, the
/// populations its detectors handed out), with the port pools of at most `maxHosts` hosts.
CapturePopulation capturePopulation(const CaptureAnalysis& analysis, size_t maxHosts = kPortPoolHostsShown);

/// The highest y a staircase `points` (sorted by x) holds within each of `columns` columns of
/// `xPerColumn` from `fromX`; 0 where it has no point yet.
std::vector<double> stepColumnMaxima(std::span<const ChartPoint> points, double fromX, double xPerColumn,
                                     size_t columns);

}  // namespace tcpscope
