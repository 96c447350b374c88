// Capture points in the GUI (issue 27): the recorded proxied exchange (client, proxy and server
// each captured on its own host, samples/rtt/rtt-nagle-proxy-*.pcap) opened as three points, the
// client's and server's clocks shifted as real hosts' clocks are: the points and hops shown, each
// stall's placement in the finding details, where each packet was seen in the packets table and
// the packet details, and the sequence diagram with a lifeline per point whose arrows slant by the measured
// one-way delay. Screenshots: screenshots/PLATFORM/capture-points-*.png.
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>

#include "capture_points/capture_points_dialog.hpp"
#include "capture_points/points_panel.hpp"
#include "models/seen_at.hpp"
#include "panels/finding_detail_panel.hpp"
#include "panels/packet_detail_panel.hpp"
#include "sequence/sequence_view.hpp"
#include "timeline/timeline_view.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

QString sample(const char* point) {
    return QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/rtt/rtt-nagle-proxy-%1.pcap").arg(QLatin1String(point));
}

const QString kProxyStrace = QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/rtt/rtt-nagle-proxy-proxy.strace");

// A copy of classic pcap `from` at `to` with every timestamp moved by `shiftUs` (as `editcap -t`
// does): a host whose clock is off.
void shiftedCopy(const QString& from, const QString& to, int64_t shiftUs) {
    QFile in(from);
    REQUIRE(in.open(QIODevice::ReadOnly));
    QByteArray bytes = in.readAll();
    REQUIRE(bytes.size() >= 24);
    uint32_t magic = 0;
    std::memcpy(&magic, bytes.constData(), 4);
    REQUIRE((magic == 0xa1b2c3d4 || magic == 0xa1b23c4d));  // this machine's byte order
    const int64_t unitsPerSecond = magic == 0xa1b2c3d4 ? 1'000'000 : 1'000'000'000;
    const int64_t shiftUnits = shiftUs * (unitsPerSecond / 1'000'000);
    qsizetype offset = 24;
    while (offset + 16 <= bytes.size()) {
        uint32_t seconds = 0;
        uint32_t fraction = 0;
        uint32_t captured = 0;
        std::memcpy(&seconds, bytes.constData() + offset, 4);
        std::memcpy(&fraction, bytes.constData() + offset + 4, 4);
        std::memcpy(&captured, bytes.constData() + offset + 8, 4);
        const int64_t units = static_cast<int64_t>(seconds) * unitsPerSecond + fraction + shiftUnits;
        seconds = static_cast<uint32_t>(units / unitsPerSecond);
        fraction = static_cast<uint32_t>(units % unitsPerSecond);
        std::memcpy(bytes.data() + offset, &seconds, 4);
        std::memcpy(bytes.data() + offset + 4, &fraction, 4);
        offset += 16 + static_cast<qsizetype>(captured);
    }
    QFile out(to);
    REQUIRE(out.open(QIODevice::WriteOnly));
    REQUIRE(out.write(bytes) == bytes.size());
}

// The three points as the lab had them: the client's clock 0.73 s behind, the server's
// 2.47 s ahead (of the proxy's, which is the true time here: the three were recorded on one host).
struct ShiftedPoints {
    QTemporaryDir dir;
    std::vector<CapturePoint> points;
    ShiftedPoints() {
        REQUIRE(dir.isValid());
        const QString client = dir.filePath(QStringLiteral("client.pcap"));
        const QString server = dir.filePath(QStringLiteral("server.pcap"));
        shiftedCopy(sample("client"), client, -730'000);
        shiftedCopy(sample("server"), server, 2'470'000);
        points = {{"client", {client.toStdString()}},
                  {"proxy", {sample("proxy").toStdString()}},
                  {"server", {server.toStdString()}}};
    }
};

bool openPoints(TestWindow& test, const std::vector<CapturePoint>& points, const QStringList& straceLogs = {}) {
    const int before = test.loads.ready + test.loads.failed;
    test.window.openPoints(points, straceLogs);
    return test.loads.waitBeyond(before) && test.loads.failed == 0;
}

// The connection from `client` (an address), or kNoConnection.
uint32_t connectionFrom(const AnalysisResults& results, const char* client) {
    for (const Connection& connection : results.connections()) {
        if (connection.client.address.toString() == client) {
            return connection.id;
        }
    }
    return kNoConnection;
}

QTabWidget& tabsOf(TestWindow& test) {
    auto* tabs = test.window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    REQUIRE(tabs != nullptr);
    return *tabs;
}

}  // namespace

TEST_CASE("capture points: the points, their clocks and the hops, and where each stall's time went", "[ui][points]") {
    TestWindow test;
    ShiftedPoints shifted;
    REQUIRE(openPoints(test, shifted.points));
    const ResultsPtr results = test.window.results();
    REQUIRE(results->points() != nullptr);
    const CapturePointsSummary& summary = *results->points();
    REQUIRE(summary.points.size() == 3);

    // The shifts come back: the proxy 730 ms and the server 3200 ms ahead of the client's clock.
    CHECK(summary.points[0].clock.reference);
    CHECK(summary.points[1].clock.clock.offsetNs / 1e6 == Approx(730).margin(0.5));
    CHECK(summary.points[2].clock.clock.offsetNs / 1e6 == Approx(3200).margin(0.5));
    CHECK(summary.hops.size() == 2);

    auto* panel = test.window.findChild<PointsPanel*>(QStringLiteral("pointsPanel"));
    REQUIRE(panel != nullptr);
    CHECK(tabsOf(test).indexOf(panel) >= 0);
    const QString text = panel->toPlainText();
    INFO(text.toStdString());
    CHECK(text.contains(QStringLiteral("Capture points (3)")));
    CHECK(text.contains(QStringLiteral("reference clock")));
    CHECK(text.contains(QStringLiteral("client.pcap")));
    CHECK(text.contains(QStringLiteral("rtt-nagle-proxy-proxy.pcap")));
    CHECK(text.contains(QStringLiteral("clock +730.")));
    CHECK(text.contains(QStringLiteral("clock +3200.")));
    for (const PointLink& hop : summary.hops) {
        const QString from = QString::fromStdString(summary.points[hop.first].point.name);
        const QString to = QString::fromStdString(summary.points[hop.second].point.name);
        CHECK(text.contains(QStringLiteral("%1 \u2194 %2").arg(from, to)));
        REQUIRE(hop.fit.firstToSecond);
        REQUIRE(hop.fit.secondToFirst);
        CHECK(text.contains(QStringLiteral("%1 ms / %2 ms")
                                .arg(hop.fit.firstToSecond->medianMs, 0, 'f', 3)
                                .arg(hop.fit.firstToSecond->p99Ms, 0, 'f', 3)));
        CHECK(text.contains(QStringLiteral("%1 ms / %2 ms")
                                .arg(hop.fit.secondToFirst->medianMs, 0, 'f', 3)
                                .arg(hop.fit.secondToFirst->p99Ms, 0, 'f', 3)));
    }

    // The timeline says which point each connection was analysed from: the client's connection from
    // the client, the proxy's onward one from the proxy.
    auto* timeline = test.window.findChild<TimelineView*>(QStringLiteral("timelineView"));
    REQUIRE(timeline != nullptr);
    REQUIRE(waitFor([timeline]() { return !timeline->model().connections().empty(); }));
    const uint32_t clientSide = connectionFrom(*results, "127.1.1.1");
    const uint32_t serverSide = connectionFrom(*results, "127.1.2.1");
    REQUIRE(clientSide != kNoConnection);
    REQUIRE(serverSide != kNoConnection);
    CHECK(timeline->model().connections()[clientSide].point == "client");
    CHECK(timeline->model().connections()[serverSide].point == "proxy");

    // Two findings, 19 stalls each, each placed along the path; the details say where.
    REQUIRE(results->findings().size() == 2);
    for (const Finding& finding : results->findings()) {
        CHECK(finding.kind == FindingKind::DelayedAckStall);
        CHECK(finding.spans.size() == 19);
        const std::optional<FindingPlacement>& placement = results->enrichments().of(finding.id).placement;
        REQUIRE(placement);
        CHECK(placement->waitedAt == "proxy");
        test.window.selectFinding(finding.id);
        QApplication::processEvents();
        auto* detail = test.window.findChild<FindingDetailPanel*>(QStringLiteral("findingDetail"));
        REQUIRE(detail != nullptr);
        const QString details = detail->toPlainText();
        INFO(details.toStdString());
        CHECK(details.contains(QStringLiteral("Where the time went")));
        CHECK(details.contains(QStringLiteral("Waited at proxy (19 stalls)")));
        CHECK(details.contains(QStringLiteral("delayed ACK")));
    }

    // Opened the usual way, the same files are one merged capture: no points, no tab.
    REQUIRE(test.open({sample("proxy")}));
    CHECK(test.window.results()->points() == nullptr);
    CHECK(test.window.findChild<PointsPanel*>(QStringLiteral("pointsPanel")) == nullptr);
}

TEST_CASE("capture points: the packets table and the packet details say where and when each packet was seen",
          "[ui][points]") {
    TestWindow test;
    ShiftedPoints shifted;
    // A fourth point: a tap beside the client whose clock is 1.5 s ahead of the client's.
    const QString tap = shifted.dir.filePath(QStringLiteral("tap.pcap"));
    shiftedCopy(sample("client"), tap, 770'000);
    std::vector<CapturePoint> points = shifted.points;
    points.push_back({"tap", {tap.toStdString()}});
    REQUIRE(openPoints(test, points));
    const ResultsPtr results = test.window.results();
    REQUIRE(results->sightings() != nullptr);
    const uint32_t clientSide = connectionFrom(*results, "127.1.1.1");
    REQUIRE(clientSide != kNoConnection);
    test.window.selectConnection(clientSide);
    QApplication::processEvents();

    auto* table = test.window.findChild<QTableView*>(QStringLiteral("packetsView"));
    REQUIRE(table != nullptr);
    QAbstractItemModel& model = *table->model();
    REQUIRE(model.columnCount() == PacketsModel::ColumnCount + 1);
    CHECK(model.headerData(PacketsModel::SeenAtColumn, Qt::Horizontal).toString() == QStringLiteral("Seen at"));
    REQUIRE(model.rowCount() > 10);
    // A data packet of the client: seen at the client, the proxy and the tap, the tap at the
    // client's time (its clock fitted back), the proxy later by the hop's delay.
    int row = 0;
    while (row < model.rowCount() &&
           !(model.index(row, PacketsModel::LengthColumn).data().toUInt() > 0 &&
             model.index(row, PacketsModel::DirectionColumn).data().toString().startsWith(QStringLiteral("client")))) {
        ++row;
    }
    REQUIRE(row < model.rowCount());
    const uint32_t frame = model.index(row, PacketsModel::FrameColumn).data().toUInt();
    const std::vector<NamedSighting> seen = namedSightingsOf(*results, frame);
    REQUIRE(seen.size() == 3);
    CHECK(seen[0].point == QStringLiteral("client"));
    CHECK(seen[1].point == QStringLiteral("proxy"));
    CHECK(seen[2].point == QStringLiteral("tap"));
    CHECK(std::abs(seen[2].tsNs - seen[0].tsNs) < 500'000);  // within the fit's half millisecond
    CHECK(seen[1].tsNs > seen[0].tsNs);
    const QString text = model.index(row, PacketsModel::SeenAtColumn).data().toString();
    INFO(text.toStdString());
    CHECK(text == QStringLiteral("client %1, proxy %2, tap %3")
                      .arg(static_cast<double>(seen[0].tsNs - results->firstTsNs()) / 1e9, 0, 'f', 6)
                      .arg(static_cast<double>(seen[1].tsNs - results->firstTsNs()) / 1e9, 0, 'f', 6)
                      .arg(static_cast<double>(seen[2].tsNs - results->firstTsNs()) / 1e9, 0, 'f', 6));

    table->setCurrentIndex(model.index(row, 0));
    QApplication::processEvents();
    auto* detail = test.window.findChild<PacketDetailPanel*>(QStringLiteral("packetDetail"));
    REQUIRE(detail != nullptr);
    const QList<QTreeWidgetItem*> found = detail->findItems(QStringLiteral("Seen at: "), Qt::MatchStartsWith, 0);
    REQUIRE(found.size() == 1);
    REQUIRE(found.front()->childCount() == 3);
    CHECK(found.front()->child(0)->text(0).startsWith(QStringLiteral("client: ")));
    CHECK(found.front()->child(1)->text(0).startsWith(QStringLiteral("proxy: ")));
    CHECK(found.front()->child(1)->text(1).contains(
        QStringLiteral("(+%1 ms)")
            .arg(static_cast<double>(seen[1].tsNs - std::min(seen[0].tsNs, seen[2].tsNs)) / 1e6, 0, 'f', 3)));
    CHECK(found.front()->child(2)->text(0).startsWith(QStringLiteral("tap: ")));

    // Opened the usual way: no such column, no such details.
    REQUIRE(test.open({sample("proxy")}));
    test.window.selectConnection(0);
    QApplication::processEvents();
    CHECK(table->model()->columnCount() == PacketsModel::ColumnCount);
}

TEST_CASE("capture points: the sequence diagram has a lifeline per point and its arrows slant by the measured delay",
          "[ui][points][screenshot]") {
    TestWindow test(true, {1366, 768});
    ShiftedPoints shifted;
    REQUIRE(openPoints(test, shifted.points, {kProxyStrace}));
    const ResultsPtr results = test.window.results();
    const uint32_t clientSide = connectionFrom(*results, "127.1.1.1");
    REQUIRE(clientSide != kNoConnection);
    tabsOf(test).setCurrentIndex(1);
    test.window.selectConnection(clientSide);
    QApplication::processEvents();
    auto* view = test.window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
    REQUIRE(view != nullptr);
    const SequenceLayout& layout = view->sequenceLayout();
    REQUIRE(!layout.isEmpty());
    REQUIRE(layout.diagram()->isProxy());

    // client @ client, proxy @ proxy, server @ server, left to right.
    const SequenceDrawList all = layout.prepare(QRectF(0, 0, layout.scale().width, layout.totalHeight()));
    REQUIRE(all.lifelines.size() == 3);
    CHECK(all.lifelines[0].role == QStringLiteral("client @ client"));
    CHECK(all.lifelines[1].role == QStringLiteral("proxy @ proxy"));
    CHECK(all.lifelines[2].role == QStringLiteral("server @ server"));
    CHECK(all.lifelines[0].x < all.lifelines[1].x);
    CHECK(all.lifelines[1].x < all.lifelines[2].x);
    CHECK(!layout.syscalls().empty());  // the proxy's strace beside its lifeline

    // Every arrow from its sighting at the sender's point to the one at the receiver's: its drop
    // is the measured one-way delay on the sequence diagram's time scale; the client's data reach the proxy
    // after the hop's delay, the proxy's reach the server after the other hop's.
    const CapturePointsSummary& summary = *results->points();
    REQUIRE(all.arrows.size() == layout.diagram()->arrows().size());
    size_t slanted = 0;
    std::vector<double> clientToProxyMs;
    std::vector<double> proxyToServerMs;
    for (const SequenceDrawList::Arrow& arrow : all.arrows) {
        const std::vector<NamedSighting> seen = namedSightingsOf(*results, arrow.frame);
        REQUIRE(seen.size() == 2);
        const SequenceArrow& drawn = layout.diagram()->arrows()[arrow.arrow];
        const QString sender = all.lifelines[drawn.from].role.section(QStringLiteral(" @ "), 1);
        const QString receiver = all.lifelines[drawn.to].role.section(QStringLiteral(" @ "), 1);
        const auto at = [&seen](const QString& point) {
            return std::find_if(seen.begin(), seen.end(), [&](const NamedSighting& s) { return s.point == point; })
                ->tsNs;
        };
        const int64_t sentNs = at(sender);
        const int64_t receivedNs = at(receiver);
        CHECK(arrow.start.y() == Approx(layout.yOfTime(sentNs)));
        CHECK(arrow.end.y() == Approx(layout.yOfTime(receivedNs)));
        const double drawnMs =
            static_cast<double>(layout.timeAtY(arrow.end.y()) - layout.timeAtY(arrow.start.y())) / 1e6;
        const double measuredMs = static_cast<double>(receivedNs - sentNs) / 1e6;
        CHECK(drawnMs == Approx(measuredMs).margin(0.01));
        CHECK(measuredMs > 0);
        slanted += arrow.end.y() - arrow.start.y() > layout.scale().slopePx ? 1 : 0;
        if (drawn.from == 0) {
            clientToProxyMs.push_back(measuredMs);
        } else if (drawn.from == 1 && drawn.to == 2) {
            proxyToServerMs.push_back(measuredMs);
        }
    }
    CHECK(slanted > all.arrows.size() / 2);

    // Two arrows of one column that come closer than a label's height in its middle without crossing
    // (the delayed ACK and the held segment that leaves as it arrives): the later one's label goes under its line,
    // so that "delayed ACK (44.0 ms)" and "held 50.2 ms" do not print over each other. One far
    // below the arrow before it in its column keeps its label above.
    size_t crowdedPairs = 0;
    size_t roomyPairs = 0;
    for (size_t later = 1; later < all.arrows.size(); ++later) {
        const SequenceArrow& laterArrow = layout.diagram()->arrows()[all.arrows[later].arrow];
        const auto columnOf = [](const SequenceArrow& arrow) {
            return std::pair{std::min(arrow.from, arrow.to), std::max(arrow.from, arrow.to)};
        };
        size_t earlier = later;
        while (earlier-- > 0 &&
               columnOf(layout.diagram()->arrows()[all.arrows[earlier].arrow]) != columnOf(laterArrow)) {
        }
        if (earlier >= later) {
            continue;  // the first of its column
        }
        // The lines' vertical distance across the middle of the column (at the same x on both).
        const auto yAt = [](const SequenceDrawList::Arrow& arrow, double x) {
            return arrow.start.y() +
                   (x - arrow.start.x()) / (arrow.end.x() - arrow.start.x()) * (arrow.end.y() - arrow.start.y());
        };
        const double left = std::min(all.arrows[later].start.x(), all.arrows[later].end.x());
        const double right = std::max(all.arrows[later].start.x(), all.arrows[later].end.x());
        double nearest = 1e300;
        for (const double t : {0.15, 0.5, 0.85}) {
            const double x = left + t * (right - left);
            nearest = std::min(nearest, yAt(all.arrows[later], x) - yAt(all.arrows[earlier], x));
        }
        if (nearest > 3 && nearest < SequenceLayout::kLabelHeight - 4) {
            ++crowdedPairs;
            INFO("frames " << all.arrows[earlier].frame << " and " << all.arrows[later].frame);
            CHECK(all.arrows[later].labelBelow);
        } else if (nearest > 2 * SequenceLayout::kLabelHeight) {
            ++roomyPairs;
            CHECK_FALSE(all.arrows[later].labelBelow);
        }
    }
    CHECK(crowdedPairs > 0);
    CHECK(roomyPairs > 0);
    const auto median = [](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        return values[values.size() / 2];
    };
    for (const PointLink& hop : summary.hops) {
        if (hop.first == 0 && hop.second == 1) {
            CHECK(median(clientToProxyMs) == Approx(hop.fit.firstToSecond->medianMs).margin(0.5));
        } else if (hop.first == 1 && hop.second == 2) {
            CHECK(median(proxyToServerMs) == Approx(hop.fit.firstToSecond->medianMs).margin(0.5));
        }
    }

    // The pictures: the window on the sequence diagram of the proxy's connections, the first stall in view,
    // and the sequence diagram alone as an incident report would take it.
    const Finding& first = results->findings().front();
    REQUIRE(!first.spans.empty());
    view->scrollToTime(first.spans.front().startNs);
    QApplication::processEvents();
    CHECK(test.window.grab().toImage().save(screenshotPath(QStringLiteral("capture-points-sequence-1366x768"))));
    const SequenceRowRange rows{layout.diagram()->firstArrowAtOrAfter(first.spans.front().startNs - 60'000'000),
                                layout.diagram()->firstArrowAtOrAfter(first.spans.front().endNs + 60'000'000)};
    const SequencePaintOptions options = view->paintOptions();
    const QSizeF size = view->renderSize(rows);
    QImage image(QSize(1366, static_cast<int>(size.height() * 1366 / size.width())), QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    view->render(painter, QRectF(QPointF(0, 0), QSizeF(image.size())), rows, options);
    painter.end();
    CHECK(image.save(screenshotPath(QStringLiteral("capture-points-sequence"))));
    tabsOf(test).setCurrentIndex(0);
    QApplication::processEvents();
    CHECK(test.window.grab().toImage().save(screenshotPath(QStringLiteral("capture-points-timeline-1366x768"))));
    tabsOf(test).setCurrentWidget(test.window.findChild<PointsPanel*>(QStringLiteral("pointsPanel")));
    QApplication::processEvents();
    CHECK(test.window.grab().toImage().save(screenshotPath(QStringLiteral("capture-points-1366x768"))));
}

TEST_CASE("capture points dialog: each file's point named after the host it was captured on", "[ui][points]") {
    // The server's busiest sender is the proxy (its requests): the handshakes tell the host.
    CHECK(CapturePointsDialog::defaultPointName(sample("client")) == QStringLiteral("127.1.1.1"));
    CHECK(CapturePointsDialog::defaultPointName(sample("server")) == QStringLiteral("127.1.2.2"));
    const QString proxy = CapturePointsDialog::defaultPointName(sample("proxy"));
    CHECK((proxy == QStringLiteral("127.1.1.2") || proxy == QStringLiteral("127.1.2.1")));

    CapturePointsDialog dialog;
    dialog.addFiles({sample("client"), sample("proxy"), sample("server"), sample("client")});
    QTableWidget& table = dialog.table();
    REQUIRE(table.rowCount() == 4);
    // Two files of one host are one point, with both files.
    std::vector<CapturePoint> points = dialog.points();
    REQUIRE(points.size() == 3);
    CHECK(points[0].name == "127.1.1.1");
    CHECK(points[0].files.size() == 2);
    table.item(1, 1)->setText(QStringLiteral("proxy"));
    points = dialog.points();
    CHECK(points[1].name == "proxy");
    CHECK(points[1].files == std::vector<std::string>{sample("proxy").toStdString()});
}
