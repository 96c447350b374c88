#include "charts/chart_content.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <tuple>

#include "series/host_population_series.hpp"
#include "series/rtt_samples.hpp"
#include "series/time_sequence.hpp"

namespace tcpscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("tcpscope::ui::ChartPanel", text);
}

const QString kTimeAxis = QStringLiteral("Time since capture start (s)");

QString endpointName(const Endpoint& endpoint) {
    return QString::fromStdString(endpoint.toString());
}

// "client 10.0.0.1:5000 -> server 10.0.0.2:80"
QString directionName(const Connection& connection, Side sender) {
    return QStringLiteral("%1 %2 → %3")
        .arg(QString::fromUtf8(sideName(sender).data()), endpointName(connection.endpoint(sender)),
             endpointName(connection.endpoint(otherSide(sender))));
}

std::pair<double, double> yRange(std::initializer_list<const std::vector<ChartPoint>*> series) {
    double lowest = 0;
    double highest = 0;
    bool any = false;
    for (const auto* points : series) {
        for (const ChartPoint& point : *points) {
            lowest = any ? std::min(lowest, point.y) : point.y;
            highest = any ? std::max(highest, point.y) : point.y;
            any = true;
        }
    }
    return {std::min(lowest, 0.0), highest > lowest ? highest : lowest + 1};
}

// The x range of a connection, with a little room on both sides.
std::pair<double, double> connectionXRange(int64_t originNs, const Connection& connection) {
    const double from = secondsSince(originNs, connection.firstTsNs);
    const double to = secondsSince(originNs, connection.lastTsNs);
    const double margin = std::max((to - from) * 0.02, 1e-4);
    return {std::max(0.0, from - margin), to + margin};
}

}  // namespace

QString chartKindName(ChartKind kind) {
    switch (kind) {
        case ChartKind::TimeSequence: return tr("Time-sequence (Stevens)");
        case ChartKind::Rtt: return tr("Round-trip time");
        case ChartKind::HostPopulation: return tr("TIME_WAIT and ports of the host");
        case ChartKind::ConnectionRate: return tr("Connection rate");
    }
    return {};
}

namespace {

// A chart with its titles; x is seconds since the capture start.
ChartData titled(const QString& title, const QString& yTitle, int64_t originTsNs) {
    ChartData chart;
    chart.title = title;
    chart.xTitle = kTimeAxis;
    chart.yTitle = yTitle;
    chart.originTsNs = originTsNs;
    return chart;
}

void add(ChartData& chart, const QString& name, std::vector<ChartPoint> points, SeriesRole role,
         SeriesStyle style = SeriesStyle::line()) {
    chart.series.push_back({name, std::move(points), {}, false, role, style});
}

void setRange(ChartData& chart, std::pair<double, double> x, double fromY, double toY) {
    std::tie(chart.fromX, chart.toX) = x;
    chart.fromY = fromY;
    chart.toY = toY;
}

// The spans of the findings on `connection` (a stall, a retransmission timeout, a closed
// window...), in seconds since `originNs`; an instant gets a sliver so that it shows.
std::vector<ShadedSpan> stallsOn(const AnalysisResults& results, uint32_t connection, int64_t originNs) {
    constexpr double kInstantSeconds = 0.002;
    std::vector<ShadedSpan> stalls;
    for (const Finding& finding : results.findings()) {
        for (const FindingSpan& span : finding.spans) {
            if (span.connection == connection) {
                const double from = static_cast<double>(span.startNs - originNs) / 1e9;
                const double to = static_cast<double>(span.endNs - originNs) / 1e9;
                stalls.push_back({from, std::max(to, from + kInstantSeconds)});
            }
        }
    }
    return stalls;
}

}  // namespace

ChartData timeSequenceData(const AnalysisResults& results, uint32_t connectionId, Side sender) {
    const Connection& connection = results.connections().at(connectionId);
    const int64_t originNs = results.firstTsNs();
    TimeSequenceSeries series = timeSequenceOf(*results.packets(), connection, originNs, sender);
    ChartData chart = titled(tr("Time-sequence of flow %1: %2").arg(connectionId).arg(directionName(connection, sender)),
                             tr("Relative sequence number (bytes)"), originNs);
    // The scale follows the data and the ACKs; a window far above them would flatten the steps
    // a stall makes, so it is named as off scale instead.
    const auto [fromY, dataTopY] = yRange({&series.segments, &series.acks});
    const double toY = dataTopY * 1.1;
    const bool windowOnScale = std::any_of(series.receiveWindow.begin(), series.receiveWindow.end(),
                                           [&](const ChartPoint& point) { return point.y <= toY; });
    add(chart, windowOnScale ? tr("receive window (ACK + window)") : tr("receive window (ACK + window): above"),
        std::move(series.receiveWindow), SeriesRole::Window, SeriesStyle::dashedLine());
    add(chart, tr("ACK"), std::move(series.acks), SeriesRole::Acks);
    add(chart, tr("segments (%1)").arg(series.dataSegments), std::move(series.segments), SeriesRole::Data);
    add(chart, tr("retransmissions (%1)").arg(series.retransmittedSegments), std::move(series.retransmissions),
        SeriesRole::Alert, SeriesStyle::markers());
    chart.stalls = stallsOn(results, connectionId, originNs);
    setRange(chart, connectionXRange(originNs, connection), fromY, toY);
    return chart;
}

ChartData rttData(const AnalysisResults& results, uint32_t connectionId, Side sender) {
    const Connection& connection = results.connections().at(connectionId);
    const int64_t originNs = results.firstTsNs();
    const std::vector<RttSample> samples = rttSamplesOf(*results.packets(), connection, sender);
    std::vector<ChartPoint> points = rttPoints(samples, originNs);
    ChartData chart = titled(tr("Round-trip time of flow %1: %2").arg(connectionId).arg(directionName(connection, sender)),
                             tr("RTT: segment to its ACK (ms)"), originNs);
    const auto [fromY, toY] = yRange({&points});
    add(chart, tr("RTT samples (%1; none for retransmitted data)").arg(samples.size()), std::move(points),
        SeriesRole::Data, SeriesStyle::markers());
    chart.stalls = stallsOn(results, connectionId, originNs);
    setRange(chart, connectionXRange(originNs, connection), fromY, toY * 1.1);
    return chart;
}

ChartData hostPopulationData(const AnalysisResults& results, const IpAddress& host) {
    const int64_t originNs = results.firstTsNs();
    const HostPopulationChart population =
        hostPopulationChart(results.populations(), host, originNs, results.lastTsNs());
    const QString hostName = QString::fromStdString(host.toString());
    const double toX = std::max(secondsSince(originNs, results.lastTsNs()), 1e-3);
    if (population.lines.empty()) {
        ChartData chart =
            titled(tr("%1 closed no connection first and never held two ports to one server").arg(hostName),
                   tr("Connections"), originNs);
        setRange(chart, {0, toX}, 0, 1);
        return chart;
    }
    ChartData chart = titled(tr("TIME_WAIT and ephemeral ports of %1 (peak %2 of %3 ports)")
                                 .arg(hostName)
                                 .arg(population.peak)
                                 .arg(population.capacityPorts),
                             tr("Connections (TIME_WAIT entries, ports in use)"), originNs);
    // The port range is the capacity; a client that kept to fewer ports ran into those first.
    // When the data stays far below the range, the axis follows the data and the range line is
    // named with its value so that the small numbers stay readable.
    const double dataTop = static_cast<double>(std::max<int64_t>({population.peak, population.observedRangePorts, 1}));
    const bool capacityOnScale = population.capacityPorts <= dataTop * 5;
    // Ports in use first and wide, TIME_WAIT on top and thin: a client whose every port is in
    // TIME_WAIT draws both on the same values, and both stay visible.
    for (const PopulationLine& line : population.lines) {
        if (line.kind == HostPopulation::Kind::PortsInUse) {
            add(chart, QString::fromStdString(line.label) + tr(" (peak %1)").arg(line.peak), line.points,
                SeriesRole::Acks, SeriesStyle::line(5));
        }
    }
    bool firstTimeWait = true;
    for (const PopulationLine& line : population.lines) {
        if (line.kind == HostPopulation::Kind::TimeWait) {
            add(chart, QString::fromStdString(line.label) + tr(" (peak %1)").arg(line.peak), line.points,
                firstTimeWait ? SeriesRole::Data : SeriesRole::Window);
            firstTimeWait = false;
        }
    }
    // The limits last, dashed over the lines that reach them.
    const auto addLimit = [&](const QString& name, uint32_t ports, SeriesRole role) {
        add(chart, name, {{0, double(ports)}, {toX, double(ports)}}, role, SeriesStyle::dashedLine());
    };
    if (capacityOnScale) {
        addLimit(tr("port range %1-%2: %3 ports")
                     .arg(population.portRangeLow)
                     .arg(population.portRangeHigh)
                     .arg(population.capacityPorts),
                 population.capacityPorts, SeriesRole::Alert);
    } else {
        chart.title += tr(" — port range %1-%2 off scale").arg(population.portRangeLow).arg(population.portRangeHigh);
    }
    if (population.observedRangePorts > 0) {
        addLimit(tr("ports the client used: %1").arg(population.observedRangePorts), population.observedRangePorts,
                 SeriesRole::SecondaryLimit);
    }
    const double top = capacityOnScale ? double(population.capacityPorts) : dataTop;
    setRange(chart, {0, toX}, 0, top * 1.1);
    return chart;
}

ChartData connectionRateData(int64_t originTsNs, const ConnectionAttempts& attempts) {
    ChartData chart = titled(tr("Connection rate: %1 new connections, %2 SYN retransmissions")
                                 .arg(attempts.newConnections.size())
                                 .arg(attempts.synRetransmissions.size()),
                             tr("Per second (bins follow the zoom)"), originTsNs);
    chart.series.push_back({tr("new connections (first SYN)"), {}, attempts.newConnections, true, SeriesRole::Data, {}});
    chart.series.push_back({tr("SYN retransmissions"), {}, attempts.synRetransmissions, true, SeriesRole::Alert, {}});
    setRange(chart, {0, std::max(attempts.durationSeconds, 1e-3)}, 0, 1);
    chart.autoY = true;
    return chart;
}

void showChart(ChartView& view, ChartData chart) {
    view.reset(chart.title, chart.xTitle, chart.yTitle, chart.originTsNs);
    for (ChartSeriesData& series : chart.series) {
        if (series.rate) {
            view.addRateSeries(series.name, std::move(series.rateTimes), series.role);
        } else {
            view.addSeries(series.name, std::move(series.points), series.role, series.style);
        }
    }
    if (!chart.stalls.empty()) {
        view.setShadedSpans(tr("stalls (findings)"), std::move(chart.stalls));
    }
    view.setFullRange(chart.fromX, chart.toX, chart.fromY, chart.toY, chart.autoY);
}

}  // namespace tcpscope::ui
