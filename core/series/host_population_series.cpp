#include "series/host_population_series.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tcpscope {

std::vector<ChartPoint> populationPoints(const PopulationSeries& series, int64_t originNs, int64_t endTsNs) {
    std::vector<ChartPoint> points;
    // Every stored bucket (the detectors keep at most 512): its time and highest count.
    constexpr size_t kEveryBucket = 1 << 16;
    const nlohmann::json buckets = series.points(originNs, endTsNs, kEveryBucket);
    if (buckets.empty()) {
        return points;
    }
    const double endX = std::max(secondsSince(originNs, endTsNs), buckets.front()[0].get<double>());
    points.push_back({buckets.front()[0].get<double>(), 0});
    for (const nlohmann::json& bucket : buckets) {
        appendStep(points, std::min(bucket[0].get<double>(), endX), bucket[1].get<double>());
    }
    // The last bucket may reach past the end of the capture: the line stops at the end.
    points.push_back({endX, points.back().y});
    return points;
}

HostPopulationChart hostPopulationChart(const CaptureAnalysis& analysis, const IpAddress& host, size_t maxPortLines) {
    if (!analysis.engine) {
        return {};
    }
    return hostPopulationChart(analysis.populations, host, analysis.engine->firstTsNs(), analysis.engine->lastTsNs(),
                               maxPortLines);
}

HostPopulationChart hostPopulationChart(std::span<const HostPopulation> populations, const IpAddress& host,
                                        int64_t originNs, int64_t endNs, size_t maxPortLines) {
    HostPopulationChart chart;
    std::vector<const HostPopulation*> portPools;
    for (const HostPopulation& population : populations) {
        if (!(population.host == host)) {
            continue;
        }
        chart.portRangeLow = population.portRangeLow;
        chart.portRangeHigh = population.portRangeHigh;
        chart.capacityPorts = uint32_t{population.portRangeHigh} - population.portRangeLow + 1;
        if (population.kind == HostPopulation::Kind::PortsInUse) {
            portPools.push_back(&population);
            continue;
        }
        chart.lines.push_back({population.kind,
                               fmt::format("TIME_WAIT (closed first as {})", sideName(population.role)),
                               populationPoints(population.series, originNs, endNs), population.series.peak()});
    }
    std::sort(portPools.begin(), portPools.end(),
              [](const HostPopulation* a, const HostPopulation* b) { return a->series.peak() > b->series.peak(); });
    portPools.resize(std::min(portPools.size(), maxPortLines));
    for (const HostPopulation* pool : portPools) {
        chart.lines.push_back({pool->kind, fmt::format("ports in use to {}", pool->server.toString()),
                               populationPoints(pool->series, originNs, endNs), pool->series.peak()});
        const uint32_t observed = uint32_t{pool->observedHighPort} - pool->observedLowPort + 1;
        const bool filled = pool->series.peak() * 10 >= int64_t{observed} * 9;  // nearly every port it ever used
        if (pool->observedHighPort != 0 && filled && observed < chart.capacityPorts &&
            (chart.observedRangePorts == 0 || observed < chart.observedRangePorts)) {
            chart.observedRangePorts = observed;
        }
    }
    for (const PopulationLine& line : chart.lines) {
        chart.peak = std::max(chart.peak, line.peak);
    }
    return chart;
}

}  // namespace tcpscope
