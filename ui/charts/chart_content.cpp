#include "charts/chart_content.hpp"

#include <QCoreApplication>
#include <algorithm>
#include <array>
#include <memory>
#include <tuple>

#include "filter/display_filter.hpp"
#include "filter/frame_record.hpp"
#include "series/host_population_series.hpp"
#include "series/io_graph.hpp"
#include "series/rtt_samples.hpp"
#include "series/throughput.hpp"
#include "series/time_sequence.hpp"
#include "series/window_scaling.hpp"

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
        case ChartKind::WindowScaling: return tr("Window scaling");
        case ChartKind::Throughput: return tr("Throughput");
        case ChartKind::Rtt: return tr("Round-trip time");
        case ChartKind::IoGraph: return tr("I/O graph (display filter)");
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
    ChartSeriesData series;
    series.name = name;
    series.points = std::move(points);
    series.role = role;
    series.style = style;
    chart.series.push_back(std::move(series));
}

// Adds the total of `events` per interval (from the zoom), or their moving average over `averageIntervals`.
void addInterval(ChartData& chart, const QString& name, std::vector<ChartPoint> events, IntervalMeasure measure,
                 size_t averageIntervals, SeriesRole role, SeriesStyle style) {
    add(chart, name, std::move(events), role, style);
    chart.series.back().interval = true;
    chart.series.back().measure = measure;
    chart.series.back().averageIntervals = averageIntervals;
}

void setRange(ChartData& chart, std::pair<double, double> x, double fromY, double toY) {
    std::tie(chart.fromX, chart.toX) = x;
    chart.fromY = fromY;
    chart.toY = toY;
}

// The spans of the findings on `connection` (a stall, a retransmission timeout, a closed
// window...), in seconds since `originNs`; the view gives an instant a minimum width.
std::vector<ShadedSpan> stallsOn(const AnalysisResults& results, uint32_t connection, int64_t originNs) {
    std::vector<ShadedSpan> stalls;
    for (const Finding& finding : results.findings()) {
        for (const FindingSpan& span : finding.spans) {
            if (span.connection == connection) {
                const double from = static_cast<double>(span.startNs - originNs) / 1e9;
                const double to = static_cast<double>(span.endNs - originNs) / 1e9;
                stalls.push_back({from, std::max(to, from)});
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
    ChartData chart =
        titled(tr("Time-sequence of flow %1: %2").arg(connectionId).arg(directionName(connection, sender)),
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

ChartData windowScalingData(const AnalysisResults& results, uint32_t connectionId, Side sender) {
    const Connection& connection = results.connections().at(connectionId);
    const int64_t originNs = results.firstTsNs();
    WindowScalingSeries series = windowScalingOf(*results.packets(), connection, originNs, sender);
    const QString scale =
        series.windowScale >= 0
            ? tr("window scale %1, ×%2").arg(series.windowScale).arg(1 << std::min(series.windowScale, 30))
            : tr("no window scaling");
    ChartData chart =
        titled(tr("Window scaling of flow %1: %2 (%3)").arg(connectionId).arg(directionName(connection, sender), scale),
               tr("Bytes"), originNs);
    // A window far above the bytes in flight (a small-write stall) would flatten them to the axis:
    // the scale follows the bytes in flight and the window is named as above it, as the
    // time-sequence graph does.
    const bool windowOnScale = series.peakWindow <= std::max(series.peakInFlight, 1.0) * 20;
    const double toY = windowOnScale ? std::max({series.peakWindow, series.peakInFlight, 1.0}) * 1.1
                                     : std::max(series.peakInFlight, 1.0) * 1.3;
    const QString windowName = windowOnScale ? tr("receiver's window, scaled (peak %1 bytes)").arg(series.peakWindow)
                                             : tr("receiver's window, scaled: %1 bytes, above").arg(series.peakWindow);
    add(chart, windowName, std::move(series.receiveWindow), SeriesRole::Window, SeriesStyle::line(2.2));
    add(chart, tr("bytes in flight (peak %1)").arg(series.peakInFlight), std::move(series.bytesInFlight),
        SeriesRole::Data);
    chart.stalls = stallsOn(results, connectionId, originNs);
    setRange(chart, connectionXRange(originNs, connection), 0, toY);
    return chart;
}

ChartData throughputData(const AnalysisResults& results, uint32_t connectionId) {
    constexpr size_t kAverageIntervals = 10;
    const Connection& connection = results.connections().at(connectionId);
    const int64_t originNs = results.firstTsNs();
    ThroughputSeries series = throughputOf(*results.packets(), connection, originNs);
    ChartData chart = titled(tr("Throughput of flow %1: client %2 ⇄ server %3 (dashed: average of %4 intervals)")
                                 .arg(connectionId)
                                 .arg(endpointName(connection.client), endpointName(connection.server))
                                 .arg(kAverageIntervals),
                             tr("Payload bytes per %1"), originNs);
    for (const Side sender : {Side::Client, Side::Server}) {
        const size_t side = sideIndex(sender);
        const SeriesRole role = sender == Side::Client ? SeriesRole::Data : SeriesRole::Acks;
        const QString who = sender == Side::Client ? tr("to server") : tr("to client");
        addInterval(chart, tr("%1, average").arg(who), series.segments[side], IntervalMeasure::Bytes, kAverageIntervals,
                    role, SeriesStyle::dashedLine());
        const QString name = tr("%1 (%2 bytes)").arg(who).arg(series.payloadBytes[side]);
        addInterval(chart, name, std::move(series.segments[side]), IntervalMeasure::Bytes, 0, role,
                    SeriesStyle::line(1.4));
    }
    chart.stalls = stallsOn(results, connectionId, originNs);
    setRange(chart, connectionXRange(originNs, connection), 0, 1);
    chart.autoY = true;
    return chart;
}

std::vector<std::string> splitIoFilters(const QString& text) {
    std::vector<std::string> filters;
    for (const QString& part : text.split(QLatin1Char(';'))) {
        if (!part.trimmed().isEmpty()) {
            filters.push_back(part.trimmed().toStdString());
        }
    }
    return filters;
}

ChartData ioGraphData(const AnalysisResults& results, const IoGraphRequest& request) {
    const int64_t originNs = results.firstTsNs();
    const PacketIndex& packets = *results.packets();
    const bool bytes = request.measure == IntervalMeasure::Bytes;
    ChartData chart =
        titled(tr("I/O graph of the capture: %1 per interval").arg(bytes ? tr("TCP payload bytes") : tr("TCP packets")),
               bytes ? tr("Payload bytes per %1") : tr("Packets per %1"), originNs);
    IoGraphLine all = ioGraphLineOf(packets, originNs);
    const auto total = [&](const IoGraphLine& line) { return bytes ? line.payloadBytes : line.packets.size(); };
    const QString allName = tr("all TCP packets (%1)").arg(total(all));
    addInterval(chart, allName, std::move(all.packets), request.measure, 0, SeriesRole::SecondaryLimit,
                SeriesStyle::line(1.2));
    constexpr std::array kLineRoles{SeriesRole::Data, SeriesRole::Alert, SeriesRole::Acks, SeriesRole::Window};
    const CaptureAnalysis* analysis = results.analysis();
    for (const std::string& expression : request.filters) {
        try {
            const filter::DisplayFilter compiled = filter::DisplayFilter::compile(expression);
            std::unique_ptr<filter::FrameRecordCursor> records;
            if (compiled.readsFrameRecords()) {
                if (analysis == nullptr || analysis->inputs.size() != 1) {
                    chart.problem = tr("%1: this filter reads each frame again from its file; it needs a complete "
                                       "capture of one file")
                                        .arg(QString::fromStdString(expression));
                    continue;
                }
                records = std::make_unique<filter::FrameRecordCursor>(analysis->inputs.front().path);
            }
            IoGraphLine line = ioGraphLineOf(packets, originNs, [&](size_t position) {
                const IndexedPacket packet = packets.at(position);
                const filter::FrameRecord* record = records ? records->seek(packet.frame) : nullptr;
                return compiled.matches(
                    filter::FilterPacket{packet, results.connections()[packet.connection], originNs, record});
            });
            const size_t lineIndex = chart.series.size() - 1;
            const QString name = tr("%1 (%2)").arg(QString::fromStdString(expression)).arg(total(line));
            addInterval(chart, name, std::move(line.packets), request.measure, 0,
                        kLineRoles[lineIndex % kLineRoles.size()], SeriesStyle::line(1.8));
        } catch (const filter::DisplayFilterError& error) {
            chart.problem = QString::fromUtf8(error.what());
        } catch (const CaptureError& error) {
            chart.problem = QString::fromUtf8(error.what());
        }
    }
    setRange(chart, {0, std::max(secondsSince(originNs, results.lastTsNs()), 1e-3)}, 0, 1);
    chart.autoY = true;
    return chart;
}

ChartData rttData(const AnalysisResults& results, uint32_t connectionId, Side sender) {
    const Connection& connection = results.connections().at(connectionId);
    const int64_t originNs = results.firstTsNs();
    const std::vector<RttSample> samples = rttSamplesOf(*results.packets(), connection, sender);
    std::vector<ChartPoint> points = rttPoints(samples, originNs);
    ChartData chart =
        titled(tr("Round-trip time of flow %1: %2").arg(connectionId).arg(directionName(connection, sender)),
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
    for (auto [name, times, role] :
         {std::tuple{tr("new connections (first SYN)"), &attempts.newConnections, SeriesRole::Data},
          std::tuple{tr("SYN retransmissions"), &attempts.synRetransmissions, SeriesRole::Alert}}) {
        add(chart, name, {}, role);
        chart.series.back().rate = true;
        chart.series.back().rateTimes = *times;
    }
    setRange(chart, {0, std::max(attempts.durationSeconds, 1e-3)}, 0, 1);
    chart.autoY = true;
    return chart;
}

void showChart(ChartView& view, ChartData chart) {
    view.reset(chart.title, chart.xTitle, chart.yTitle, chart.originTsNs);
    for (ChartSeriesData& series : chart.series) {
        if (series.rate) {
            view.addRateSeries(series.name, std::move(series.rateTimes), series.role);
        } else if (series.interval) {
            view.addIntervalSeries(series.name, std::move(series.points), series.measure, series.averageIntervals,
                                   series.role, series.style);
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
