#include "charts/chart_content.hpp"

#include <QCoreApplication>
#include <algorithm>

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
std::pair<double, double> connectionXRange(const CaptureAnalysis& analysis, const Connection& connection) {
    const int64_t originNs = analysis.engine->firstTsNs();
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

void showTimeSequence(ChartView& view, const CaptureAnalysis& analysis, uint32_t connectionId, Side sender) {
    const Connection& connection = analysis.engine->connections().at(connectionId);
    TimeSequenceSeries series = timeSequenceOf(*analysis.engine, connectionId, sender);
    view.reset(tr("Time-sequence of flow %1: %2").arg(connectionId).arg(directionName(connection, sender)), kTimeAxis,
               tr("Relative sequence number (bytes)"), analysis.engine->firstTsNs());
    // The scale follows the data and the ACKs; a window far above them would flatten the steps
    // a stall makes, so it is named as off scale instead.
    const auto [fromY, dataTopY] = yRange({&series.segments, &series.acks});
    const double toY = dataTopY * 1.1;
    const auto [fromX, toX] = connectionXRange(analysis, connection);
    const bool windowOnScale = std::any_of(series.receiveWindow.begin(), series.receiveWindow.end(),
                                           [&](const ChartPoint& point) { return point.y <= toY; });
    view.addSeries(windowOnScale ? tr("receive window (ACK + window)") : tr("receive window (ACK + window): above"),
                   std::move(series.receiveWindow), SeriesRole::Window, SeriesStyle::dashedLine());
    view.addSeries(tr("ACK"), std::move(series.acks), SeriesRole::Acks);
    view.addSeries(tr("segments (%1)").arg(series.dataSegments), std::move(series.segments), SeriesRole::Data);
    view.addSeries(tr("retransmissions (%1)").arg(series.retransmittedSegments), std::move(series.retransmissions),
                   SeriesRole::Alert, SeriesStyle::markers());
    view.setFullRange(fromX, toX, fromY, toY);
}

void showRtt(ChartView& view, const CaptureAnalysis& analysis, uint32_t connectionId, Side sender) {
    const Connection& connection = analysis.engine->connections().at(connectionId);
    const std::vector<RttSample> samples = rttSamplesOf(*analysis.engine, connectionId, sender);
    std::vector<ChartPoint> points = rttPoints(samples, analysis.engine->firstTsNs());
    view.reset(tr("Round-trip time of flow %1: %2").arg(connectionId).arg(directionName(connection, sender)), kTimeAxis,
               tr("RTT: segment to its ACK (ms)"), analysis.engine->firstTsNs());
    const auto [fromY, toY] = yRange({&points});
    const auto [fromX, toX] = connectionXRange(analysis, connection);
    view.addSeries(tr("RTT samples (%1; none for retransmitted data)").arg(samples.size()), std::move(points),
                   SeriesRole::Data, SeriesStyle::markers());
    view.setFullRange(fromX, toX, fromY, toY * 1.1);
}

void showHostPopulation(ChartView& view, const CaptureAnalysis& analysis, const IpAddress& host) {
    const HostPopulationChart chart = hostPopulationChart(analysis, host);
    const QString hostName = QString::fromStdString(host.toString());
    const int64_t originNs = analysis.engine->firstTsNs();
    const double toX = std::max(secondsSince(originNs, analysis.engine->lastTsNs()), 1e-3);
    if (chart.lines.empty()) {
        view.reset(tr("%1 closed no connection first and never held two ports to one server").arg(hostName), kTimeAxis,
                   tr("Connections"), originNs);
        view.setFullRange(0, toX, 0, 1);
        return;
    }
    view.reset(tr("TIME_WAIT and ephemeral ports of %1 (peak %2 of %3 ports)")
                   .arg(hostName)
                   .arg(chart.peak)
                   .arg(chart.capacityPorts),
               kTimeAxis, tr("Connections (TIME_WAIT entries, ports in use)"), originNs);
    // The port range is the capacity; a client that kept to fewer ports ran into those first.
    // When the data stays far below the range, the axis follows the data and the range line is
    // named with its value so that the small numbers stay readable.
    const double dataTop = static_cast<double>(std::max<int64_t>({chart.peak, chart.observedRangePorts, 1}));
    const bool capacityOnScale = chart.capacityPorts <= dataTop * 5;
    // Ports in use first and wide, TIME_WAIT on top and thin: a client whose every port is in
    // TIME_WAIT draws both on the same values, and both stay visible.
    for (const PopulationLine& line : chart.lines) {
        if (line.kind == HostPopulation::Kind::PortsInUse) {
            view.addSeries(QString::fromStdString(line.label) + tr(" (peak %1)").arg(line.peak), line.points,
                           SeriesRole::Acks, SeriesStyle::line(5));
        }
    }
    bool firstTimeWait = true;
    for (const PopulationLine& line : chart.lines) {
        if (line.kind == HostPopulation::Kind::TimeWait) {
            view.addSeries(QString::fromStdString(line.label) + tr(" (peak %1)").arg(line.peak), line.points,
                           firstTimeWait ? SeriesRole::Data : SeriesRole::Window);
            firstTimeWait = false;
        }
    }
    // The limits last, dashed over the lines that reach them.
    const auto addLimit = [&](const QString& name, uint32_t ports, SeriesRole role) {
        view.addSeries(name, {{0, double(ports)}, {toX, double(ports)}}, role, SeriesStyle::dashedLine());
    };
    if (capacityOnScale) {
        addLimit(
            tr("port range %1-%2: %3 ports").arg(chart.portRangeLow).arg(chart.portRangeHigh).arg(chart.capacityPorts),
            chart.capacityPorts, SeriesRole::Alert);
    }
    if (chart.observedRangePorts > 0) {
        addLimit(tr("ports the client used: %1").arg(chart.observedRangePorts), chart.observedRangePorts,
                 SeriesRole::SecondaryLimit);
    }
    const double top = capacityOnScale ? double(chart.capacityPorts) : dataTop;
    view.setFullRange(0, toX, 0, top * 1.1);
    if (!capacityOnScale) {
        view.chart()->setTitle(view.title() +
                               tr(" — port range %1-%2 off scale").arg(chart.portRangeLow).arg(chart.portRangeHigh));
    }
}

void showConnectionRate(ChartView& view, const CaptureAnalysis& analysis, const ConnectionAttempts& attempts) {
    view.reset(tr("Connection rate: %1 new connections, %2 SYN retransmissions")
                   .arg(attempts.newConnections.size())
                   .arg(attempts.synRetransmissions.size()),
               kTimeAxis, tr("Per second (bins follow the zoom)"), analysis.engine->firstTsNs());
    view.addRateSeries(tr("new connections (first SYN)"), attempts.newConnections, SeriesRole::Data);
    view.addRateSeries(tr("SYN retransmissions"), attempts.synRetransmissions, SeriesRole::Alert);
    view.setFullRange(0, std::max(attempts.durationSeconds, 1e-3), 0, 1, true);
}

}  // namespace tcpscope::ui
