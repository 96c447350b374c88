#include "series/capture_population.hpp"

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

const PopulationLine* CapturePopulation::timeWait() const {
    return highestLine(chart, HostPopulation::Kind::TimeWait);
}

const PopulationLine* CapturePopulation::portsInUse() const {
    return highestLine(chart, HostPopulation::Kind::PortsInUse);
}

bool CapturePopulation::capacityOnScale() const {
    // As the Charts tab judges it: a range far above the data would flatten the lines.
    const int64_t dataTop = std::max<int64_t>({chart.peak, chart.observedRangePorts, 1});
    return chart.capacityPorts > 0 && chart.capacityPorts <= dataTop * 5;
}

double CapturePopulation::scaleTop() const {
    if (capacityOnScale()) {
        return chart.capacityPorts;
    }
    return static_cast<double>(std::max<int64_t>({chart.peak, chart.observedRangePorts, 1}));
}

CapturePopulation capturePopulation(const CaptureAnalysis& analysis) {
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
    const HostPopulation* highest = nullptr;
    for (const HostPopulation& candidate : analysis.populations) {
        if (highest == nullptr || candidate.series.peak() > highest->series.peak()) {
            highest = &candidate;
        }
    }
    if (highest != nullptr) {
        population.host = highest->host;
        population.chart = hostPopulationChart(analysis, highest->host);
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
