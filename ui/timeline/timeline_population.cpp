#include "timeline/timeline_population.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "finding/wording.hpp"

namespace tcpscope::ui {

namespace {

constexpr double kRowPadPx = 3;
constexpr int kLevelSteps = 12;
constexpr double kLimitHeadroom = 1.15;  // opacity steps of a density strip: runs of a step become one bar

// The pixel columns of the plot and the time each stands for.
struct Columns {
    size_t count = 0;
    int64_t fromNs = 0;
    double nsPerColumn = 1;
    double fromX = 0;  // seconds since the population's origin
    double secondsPerColumn = 1;
};

Columns columnsOf(const TimelineFrame& frame, int64_t originNs) {
    Columns columns;
    columns.count = static_cast<size_t>(std::ceil(std::max(frame.plot.w, 0.0)));
    columns.fromNs = frame.axis.toNs(frame.plot.x);
    columns.nsPerColumn = frame.axis.nsPerPx();
    columns.fromX = secondsSince(originNs, columns.fromNs);
    columns.secondsPerColumn = columns.nsPerColumn * 1e-9;
    return columns;
}

// Calls `emit(first, end, key)` for each run [first, end) of the `columns` columns whose
// keyOf(column) is the same and not zero: one bar for a run, not one per pixel.
template <typename KeyOf, typename Emit>
void forEachRun(size_t columns, const KeyOf& keyOf, const Emit& emit) {
    size_t column = 0;
    while (column < columns) {
        const auto key = keyOf(column);
        size_t end = column + 1;
        while (end < columns && keyOf(end) == key) {
            ++end;
        }
        if (key > 0) {
            emit(column, end, key);
        }
        column = end;
    }
}

// One bar per run of columns of the same height, from the bottom of `area`, scaled to `top`.
void addColumnBars(const std::vector<double>& values, double top, const LayoutRect& area, BarRole role,
                   TimelineFrame& frame) {
    const auto heightOf = [&](size_t column) {
        // A count above zero is at least a pixel high, so a single connection shows.
        const double value = values[column];
        return value <= 0 ? 0.0 : std::max(1.0, std::round(std::min(value / top, 1.0) * area.h));
    };
    forEachRun(values.size(), heightOf, [&](size_t first, size_t end, double height) {
        frame.bars.push_back(
            {{area.x + static_cast<double>(first), area.bottom() - height, static_cast<double>(end - first), height},
             role});
    });
}

double highest(const std::vector<double>& values) {
    return values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
}

std::vector<double> toDoubles(const std::vector<uint32_t>& counts) {
    return {counts.begin(), counts.end()};
}

// A dashed limit across the row at `value` of `top` (its value is in the row's gutter).
void addLimit(double value, double top, const LayoutRect& area, TimelineFrame& frame) {
    // A pixel above the bars that reach it, so that it shows over them.
    const double y = std::round(area.bottom() - std::min(value / top, 1.0) * area.h) - 1.5;
    frame.lines.push_back({area.x, y, area.right(), y, LineRole::Capacity});
}

}  // namespace

std::string barRoleLabel(BarRole role) {
    switch (role) {
        case BarRole::SynWait:
        case BarRole::Open:
        case BarRole::Stalled:
        case BarRole::TimeWait: return std::string(populationStateLabel(static_cast<PopulationState>(role)));
        case BarRole::NewConnections: return "new connections";
        case BarRole::SynRetransmissions: return "SYNs retried";
        case BarRole::PortsInUse: return "ports in use";
    }
    return {};
}

PopulationRowLabel populationRowLabel(const TimelineModel& model, PopulationRowKey key) {
    const CapturePopulation* population = model.population();
    if (population == nullptr) {
        return {};
    }
    switch (key.row) {
        case PopulationRow::ConnectionRate:
            return {"New connections /s",
                    fmt::format("{} new · {} SYNs retried", groupedDigits(population->attempts.newConnections.size()),
                                groupedDigits(population->attempts.synRetransmissions.size()))};
        case PopulationRow::TimeWait:
        case PopulationRow::PortsInUse: {
            if (key.host >= population->hosts.size()) {
                return {};
            }
            const HostPortPool& pool = population->hosts[key.host];
            const std::string host = pool.host.toString();
            const PopulationLine* line = key.row == PopulationRow::TimeWait ? pool.timeWait() : pool.portsInUse();
            const std::string peak = groupedDigits(line != nullptr ? static_cast<uint64_t>(line->peak) : 0);
            const HostPopulationChart& chart = pool.chart;
            // Against the limit the row draws (see layoutPopulationRow).
            std::string detail =
                pool.capacityOnScale()
                    ? fmt::format("peak {} of the {}-port range", peak, groupedDigits(chart.capacityPorts))
                : chart.observedRangePorts > 0
                    ? fmt::format("peak {} of its {} ports", peak, groupedDigits(chart.observedRangePorts))
                    : fmt::format("peak {} of {} ports", peak, groupedDigits(chart.capacityPorts));
            const bool lastHost = key.host + 1 == population->hosts.size();
            if (key.row == PopulationRow::PortsInUse && lastHost && population->hostsLeftOut > 0) {
                // The hosts left out instead of the range, which the rows above name: the gutter is narrow.
                detail = fmt::format("peak {} · +{}", peak, plural(population->hostsLeftOut, "host", "hosts"));
            }
            return {key.row == PopulationRow::TimeWait ? fmt::format("TIME_WAIT of {}", host)
                                                       : fmt::format("Ports in use by {}", host),
                    std::move(detail)};
        }
        case PopulationRow::SynWaits: return {"Handshakes waiting", "SYN sent, not yet answered"};
    }
    return {};
}

std::string layoutPopulationRow(const TimelineModel& model, PopulationRowKey key, const LayoutRow& laid,
                                TimelineFrame& frame) {
    const CapturePopulation* population = model.population();
    if (population == nullptr) {
        return {};
    }
    const LayoutRect area{frame.plot.x, laid.rect.y + kRowPadPx, frame.plot.w,
                          std::max(laid.rect.h - 2 * kRowPadPx, 2.0)};
    const Columns columns = columnsOf(frame, population->originNs);
    const double toX = columns.fromX + static_cast<double>(columns.count) * columns.secondsPerColumn;
    switch (key.row) {
        case PopulationRow::ConnectionRate: {
            // Rates in bins of at least 3 px (as the Charts tab bins them), read per column.
            const double bin = rateBinSeconds(columns.fromX, toX, columns.count);
            const auto perColumn = [&](const std::vector<double>& times) {
                const std::vector<ChartPoint> rates = ratePoints(times, columns.fromX, toX, bin);
                return stepColumnMaxima(rates, columns.fromX, columns.secondsPerColumn, columns.count);
            };
            const std::vector<double> created = perColumn(population->attempts.newConnections);
            const std::vector<double> retried = perColumn(population->attempts.synRetransmissions);
            const double top = std::max({highest(created), highest(retried), 1.0});
            addColumnBars(created, top, area, BarRole::NewConnections, frame);
            addColumnBars(retried, top, area, BarRole::SynRetransmissions, frame);
            return fmt::format("{}/s", groupedDigits(static_cast<uint64_t>(std::lround(top))));
        }
        case PopulationRow::TimeWait:
        case PopulationRow::PortsInUse: {
            if (key.host >= population->hosts.size()) {
                return {};
            }
            const HostPortPool& pool = population->hosts[key.host];
            const PopulationLine* line = key.row == PopulationRow::TimeWait ? pool.timeWait() : pool.portsInUse();
            if (line == nullptr) {
                return {};
            }
            // With a limit, room above it so that its dashed line shows over bars that reach it.
            const double limit = pool.capacityOnScale() ? pool.chart.capacityPorts : pool.chart.observedRangePorts;
            const double top = limit > 0 ? pool.scaleTop() * kLimitHeadroom : pool.scaleTop();
            addColumnBars(stepColumnMaxima(line->points, columns.fromX, columns.secondsPerColumn, columns.count), top,
                          area, key.row == PopulationRow::TimeWait ? BarRole::TimeWait : BarRole::PortsInUse, frame);
            if (limit > 0) {
                addLimit(limit, top, area, frame);
                return {};
            }
            return groupedDigits(static_cast<uint64_t>(top));
        }
        case PopulationRow::SynWaits: {
            // The most connections waiting at one moment within each column.
            const std::vector<double> waiting = toDoubles(
                population->handshakesWaiting.columnMaxima(columns.fromNs, columns.nsPerColumn, columns.count));
            const double top = std::max(highest(waiting), 1.0);
            addColumnBars(waiting, top, area, BarRole::SynWait, frame);
            return groupedDigits(static_cast<uint64_t>(top));
        }
    }
    return {};
}

void layoutDensityStrip(const TimelineModel& model, size_t group, const LayoutRect& band, TimelineFrame& frame) {
    const Columns columns = columnsOf(frame, model.captureRange().startNs);
    const int64_t toNs =
        columns.fromNs + static_cast<int64_t>(static_cast<double>(columns.count) * columns.nsPerColumn);
    const int64_t endNs = model.captureRange().endNs;
    DensityGrid grid(columns.fromNs, columns.nsPerColumn, columns.count);
    for (const uint32_t id : model.groupMembers(group)) {
        const ConnectionLane& lane = model.connections()[id];
        grid.addLife(lane.life, endNs);
        // Its stalls in view, overlapping ones merged (a connection stalled twice at once counts once).
        const LaneContent& content = lane.content;
        StallStretch merged{0, -1};
        for (size_t i = content.firstStallEndingAfter(columns.fromNs);
             i < content.stalls.size() && content.stalls[i].startNs <= toNs; ++i) {
            const StallSpan& stall = content.stalls[i];
            if (stall.endNs <= stall.startNs) {
                continue;
            }
            if (merged.endNs >= merged.startNs && stall.startNs <= merged.endNs) {
                merged.endNs = std::max(merged.endNs, stall.endNs);
                continue;
            }
            if (merged.endNs >= merged.startNs) {
                grid.add(PopulationState::Stalled, merged.startNs, merged.endNs);
            }
            merged = {stall.startNs, stall.endNs};
        }
        if (merged.endNs >= merged.startNs) {
            grid.add(PopulationState::Stalled, merged.startNs, merged.endNs);
        }
    }
    const double stripHeight = std::floor(band.h / static_cast<double>(kPopulationStateCount));
    for (size_t state = 0; state < kPopulationStateCount; ++state) {
        const std::vector<uint32_t> counts = grid.counts(static_cast<PopulationState>(state));
        const double peak = std::max<double>(model.groups()[group].peaks[state], 1.0);
        // Darker where more of the group is in this state; any connection at all shows.
        const auto levelOf = [&counts, peak](size_t column) {
            if (counts[column] == 0) {
                return 0;
            }
            const double share = std::sqrt(std::min(static_cast<double>(counts[column]) / peak, 1.0));
            return 1 + static_cast<int>(std::lround(share * (kLevelSteps - 1)));
        };
        const double y = band.y + static_cast<double>(state) * stripHeight;
        forEachRun(counts.size(), levelOf, [&](size_t first, size_t end, int level) {
            const auto alpha = static_cast<uint8_t>(60 + (195 * (level - 1)) / (kLevelSteps - 1));
            frame.bars.push_back({{band.x + static_cast<double>(first), y, static_cast<double>(end - first),
                                   std::max(stripHeight - 1, 1.0)},
                                  static_cast<BarRole>(state),
                                  alpha});
        });
    }
}

}  // namespace tcpscope::ui
