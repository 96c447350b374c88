#include "series/capture_population.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cmath>

#include "series/endpoint_groups.hpp"

namespace tcpscope {

namespace {

const PopulationLine* highestLine(const HostPopulationChart& chart, HostPopulation::Kind kind) {
    const PopulationLine* highest = nullptr;
    for (const PopulationLine& line : chart.lines) {
        if (line.kind == kind && (highest == nullptr || line.peak > highest->peak)) {
            highest = &line;
        }
    }
    return highest;
}

}  // namespace

const PopulationLine* HostPortPool::timeWait() const {
    return highestLine(chart, HostPopulation::Kind::TimeWait);
}

const PopulationLine* HostPortPool::portsInUse() const {
    return highestLine(chart, HostPopulation::Kind::PortsInUse);
}

bool HostPortPool::capacityOnScale() const {
    // As the Charts tab judges it: a range far above the data would flatten the lines.
    const int64_t dataTop = std::max<int64_t>({chart.peak, chart.observedRangePorts, 1});
    return chart.capacityPorts > 0 && chart.capacityPorts <= dataTop * 5;
}

double HostPortPool::scaleTop() const {
    if (capacityOnScale()) {
        return chart.capacityPorts;
    }
    return static_cast<double>(std::max<int64_t>({chart.peak, chart.observedRangePorts, 1}));
}

namespace {

// The highest count of any series a detector kept about a host, and of its port pools alone.
struct HostPeaks {
    IpAddress host;
    int64_t peak = 0;
    int64_t portsPeak = 0;
};

std::vector<HostPeaks> hostPeaks(std::span<const HostPopulation> populations) {
    std::vector<HostPeaks> hosts;  // in order of their first series
    absl::flat_hash_map<IpAddress, size_t> byHost;
    for (const HostPopulation& population : populations) {
        const auto [slot, isNew] = byHost.try_emplace(population.host, hosts.size());
        if (isNew) {
            hosts.push_back({population.host});
        }
        HostPeaks& peaks = hosts[slot->second];
        peaks.peak = std::max(peaks.peak, population.series.peak());
        if (population.kind == HostPopulation::Kind::PortsInUse) {
            peaks.portsPeak = std::max(peaks.portsPeak, population.series.peak());
        }
    }
    return hosts;
}

}  // namespace

CapturePopulation capturePopulation(const CaptureAnalysis& analysis, size_t maxHosts) {
    CapturePopulation population;
    if (!analysis.engine) {
        return population;
    }
    population.originNs = analysis.engine->firstTsNs();
    population.attempts = connectionAttemptsOf(*analysis.engine);
    const ConnectionStore& connections = analysis.engine->connections();
    for (size_t id = 0; id < connections.size(); ++id) {
        const ConnectionLife life = connectionLife(connections[id], 0);
        population.handshakesWaiting.add(life.startNs, life.establishedNs);
    }
    population.handshakesWaiting.finish();
    std::vector<HostPeaks> hosts = hostPeaks(analysis.populations);
    if (hosts.empty() || maxHosts == 0) {
        return population;
    }
    // The busiest first (the first of equal peaks), then the client hosts worth a row, by peak.
    const auto busiest = std::max_element(hosts.begin(), hosts.end(),
                                          [](const HostPeaks& a, const HostPeaks& b) { return a.peak < b.peak; });
    std::rotate(hosts.begin(), busiest, busiest + 1);
    const auto others = std::stable_partition(hosts.begin() + 1, hosts.end(), [](const HostPeaks& peaks) {
        return peaks.portsPeak >= kPortPoolWorthCharting;
    });
    std::stable_sort(hosts.begin() + 1, others, [](const HostPeaks& a, const HostPeaks& b) { return a.peak > b.peak; });
    const auto charted = static_cast<size_t>(others - hosts.begin());
    const size_t shown = std::min(charted, maxHosts);
    population.hostsLeftOut = charted - shown;
    for (size_t index = 0; index < shown; ++index) {
        population.hosts.push_back({hosts[index].host, hostPopulationChart(analysis, hosts[index].host)});
    }
    return population;
}

std::vector<double> stepColumnMaxima(std::span<const ChartPoint> points, double fromX, double xPerColumn,
                                     size_t columns) {
    std::vector<double> maxima(columns, 0.0);
    if (columns == 0 || !(xPerColumn > 0) || points.empty()) {
        return maxima;
    }
    // The value held at the start of the range: that of the last point at or before it.
    auto next = std::upper_bound(points.begin(), points.end(), fromX,
                                 [](double x, const ChartPoint& point) { return x < point.x; });
    double held = next == points.begin() ? 0.0 : std::prev(next)->y;
    const double lastX = points.back().x;  // the series says nothing after its last point
    for (size_t column = 0; column < columns; ++column) {
        const double start = fromX + static_cast<double>(column) * xPerColumn;
        const double end = start + xPerColumn;
        if (start > lastX) {
            break;
        }
        double highest = held;
        for (; next != points.end() && next->x < end; ++next) {
            highest = std::max(highest, next->y);
            held = next->y;
        }
        maxima[column] = highest;
    }
    return maxima;
}

}  // namespace tcpscope
