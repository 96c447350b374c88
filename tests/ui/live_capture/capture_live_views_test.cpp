// The views of one connection during a live capture, as a user watches it: real write-write-read
// traffic on lo, the user selects the connection while the capture runs, and its packets table,
// its sequence diagram and its time-sequence chart show its packets and grow with the next snapshots, all
// before Stop; the connection-rate chart of the whole capture grows too. Needs the right to
// capture (CI runs as root); skipped otherwise.
#include <QDir>
#include <QGuiApplication>
#include <QProcess>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>

#include "charts/chart_panel.hpp"
#include "core/live/live_test_support.hpp"
#include "live_capture/live_capture_controller.hpp"
#include "models/connections_model.hpp"
#include "sequence/sequence_view.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

// What the views of the selected connection show now.
struct Shown {
    int packetRows = 0;
    size_t arrows = 0;
    size_t chartPoints = 0;  // points of the time-sequence chart's segments (two per data segment)
};

Shown shownBy(MainWindow& window) {
    Shown shown;
    shown.packetRows = window.findChild<QTableView*>(QStringLiteral("packetsView"))->model()->rowCount();
    const SequenceDiagram* diagram = window.findChild<SequenceView*>(QStringLiteral("sequenceView"))->sequenceLayout().diagram();
    shown.arrows = diagram != nullptr ? diagram->arrows().size() : 0;
    const ChartView& chart = window.findChild<ChartPanel*>(QStringLiteral("chartPanel"))->view();
    for (size_t series = 0; series < chart.seriesCount(); ++series) {
        if (chart.seriesName(series).startsWith(QStringLiteral("segments"))) {
            shown.chartPoints = chart.sourcePoints(series);
        }
    }
    return shown;
}

}  // namespace

TEST_CASE("the selected connection's packets table and sequence diagram and chart grow while a live capture on lo runs",
          "[ui][capture-live]") {
    if (!test::mayCapture()) {
        return;
    }
    TestWindow test;
    MainWindow& window = test.window;
    const uint16_t port = test::livePort(73);
    const CaptureSettings settings = loopbackCapture(port, QStringLiteral("tcpscope-ui-live-views"));
    REQUIRE(window.startCapture(settings));
    LiveCaptureController& capture = window.captureController();

    // One client on one connection for 8 s, 20 requests a second, each answer in two writes.
    QProcess traffic;
    traffic.start(QStringLiteral("python3"), {QString::fromStdString(test::kWriteWriteRead), QString::number(port),
                                              QStringLiteral("0"), QStringLiteral("--duration"), QStringLiteral("8"),
                                              QStringLiteral("--rate"), QStringLiteral("20"),
                                              QStringLiteral("--long-clients"), QStringLiteral("1")});
    REQUIRE(traffic.waitForStarted());

    // The user selects the connection as soon as it is listed, and looks at its sequence diagram.
    auto* connections = window.findChild<QTableView*>(QStringLiteral("connectionsView"));
    REQUIRE(connections != nullptr);
    REQUIRE(waitFor([&]() { return connections->model()->rowCount() > 0; }, 10000));
    connections->selectRow(0);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    tabs->setCurrentWidget(window.findChild<SequenceView*>(QStringLiteral("sequenceView")));
    REQUIRE(capture.isRunning());
    const uint32_t connection = connections->currentIndex().data(ConnectionsModel::ConnectionIdRole).toUInt();

    // The table, and the sequence diagram when it is the tab shown, hold exactly the connection's packets of
    // the snapshot shown.
    const auto consistent = [&]() {
        const ResultsPtr results = window.results();
        REQUIRE(results != nullptr);
        CHECK_FALSE(results->isComplete());
        REQUIRE(results->packets() != nullptr);
        const Connection& flow = results->connections().at(connection);
        const uint64_t packets = flow.from(Side::Client).packets + flow.from(Side::Server).packets;
        const Shown shown = shownBy(window);
        CHECK(static_cast<uint64_t>(shown.packetRows) == packets);
        if (tabs->currentWidget()->objectName() == QStringLiteral("sequenceView")) {
            CHECK(shown.arrows == packets);
        }
        return shown;
    };
    REQUIRE(waitFor([&]() { return shownBy(window).packetRows >= 20; }, 10000));
    REQUIRE(capture.isRunning());
    const Shown first = consistent();
    CHECK(first.arrows > 0);

    // The charts tab: the time-sequence chart of the same connection, from the same snapshot.
    tabs->setCurrentWidget(window.findChild<ChartPanel*>(QStringLiteral("chartPanel")));
    REQUIRE(waitFor([&]() { return shownBy(window).chartPoints > 0; }, 5000));
    CHECK(window.findChild<ChartPanel*>(QStringLiteral("chartPanel"))->connection() == connection);

    // A second later the capture still runs and every view has more packets.
    QTest::qWait(1000);
    REQUIRE(waitFor([&]() { return shownBy(window).packetRows > first.packetRows + 20; }, 5000));
    REQUIRE(capture.isRunning());
    const Shown later = consistent();
    CHECK(later.chartPoints > first.chartPoints);
    // The answers (29 bytes each) outweigh the requests (10 bytes): the chart follows the server.
    CHECK(window.findChild<ChartPanel*>(QStringLiteral("chartPanel"))->direction() == Side::Server);
    const QString screenshots = QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
    QDir().mkpath(screenshots);
    window.grab().save(screenshots + QStringLiteral("/live-capture-charts.png"));
    tabs->setCurrentWidget(window.findChild<SequenceView*>(QStringLiteral("sequenceView")));
    REQUIRE(waitFor([&]() { return shownBy(window).arrows > later.arrows; }, 5000));
    CHECK(capture.isRunning());
    consistent();
    window.grab().save(screenshots + QStringLiteral("/live-capture-sequence.png"));

    // Stop: the file opens as any capture, with at least the packets the live views showed.
    REQUIRE(traffic.waitForFinished(20000));
    const int loadsBefore = test.loads.ready + test.loads.failed;
    window.stopCapture();
    REQUIRE(test.loads.waitBeyond(loadsBefore));
    REQUIRE(window.results()->isComplete());
    const Connection& reopened = window.results()->connections().at(connection);
    CHECK(reopened.from(Side::Client).packets + reopened.from(Side::Server).packets >
          static_cast<uint64_t>(later.packetRows));
    QFile::remove(settings.outputPath);
}

namespace {

// Connections counted by the connection-rate chart shown now: its new connections' first SYNs.
size_t rateChartConnections(const ChartPanel& panel) {
    const ChartView& chart = panel.view();
    for (size_t series = 0; series < chart.seriesCount(); ++series) {
        if (chart.seriesName(series).startsWith(QStringLiteral("new connections"))) {
            return chart.sourcePoints(series);
        }
    }
    return 0;
}

// Points of the host chart's lines (TIME_WAIT, ports in use; not its dashed limits) shown now.
size_t hostChartPoints(const ChartPanel& panel) {
    const ChartView& chart = panel.view();
    size_t points = 0;
    for (size_t series = 0; series < chart.seriesCount(); ++series) {
        const QString name = chart.seriesName(series);
        if (name.startsWith(QStringLiteral("TIME_WAIT")) || name.startsWith(QStringLiteral("ports in use"))) {
            points += chart.sourcePoints(series);
        }
    }
    return points;
}

}  // namespace

TEST_CASE("the connection-rate and host charts grow while a live capture on lo runs, and keep the user's zoom",
          "[ui][capture-live]") {
    if (!test::mayCapture()) {
        return;
    }
    TestWindow test;
    MainWindow& window = test.window;
    const uint16_t port = test::livePort(74);
    const CaptureSettings settings = loopbackCapture(port, QStringLiteral("tcpscope-ui-live-rate"));
    REQUIRE(window.startCapture(settings));
    LiveCaptureController& capture = window.captureController();

    // A client that opens a new connection for every request, 20 a second, for 10 s.
    QProcess traffic;
    traffic.start(QStringLiteral("python3"),
                  {QString::fromStdString(test::kWriteWriteRead), QString::number(port), QStringLiteral("0"),
                   QStringLiteral("--duration"), QStringLiteral("10"), QStringLiteral("--rate"), QStringLiteral("20"),
                   QStringLiteral("--reconnect-every"), QStringLiteral("1")});
    REQUIRE(traffic.waitForStarted());

    // The user opens the charts tab and picks the connection rate, with no connection selected.
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    auto* panel = window.findChild<ChartPanel*>(QStringLiteral("chartPanel"));
    tabs->setCurrentWidget(panel);
    panel->setKind(ChartKind::ConnectionRate);
    const bool rateShown = waitFor([&]() { return rateChartConnections(*panel) >= 10; }, 10000);
    INFO(panel->view().title().toStdString() << "; connections: " << window.results()->connections().size());
    REQUIRE(rateShown);
    REQUIRE(capture.isRunning());
    const size_t first = rateChartConnections(*panel);
    CHECK(panel->view().title().startsWith(QStringLiteral("Connection rate")));
    // Every connection of the snapshot shown is counted once (the capture started before the client).
    const ResultsPtr shown = window.results();
    REQUIRE(shown != nullptr);
    CHECK_FALSE(shown->isComplete());
    CHECK(first == shown->connections().size());

    // The user zooms into the first half; the next snapshots add connections and keep the zoom.
    const double half = panel->view().visibleXRange().second / 2;
    panel->view().setVisibleXRange(0, half);
    REQUIRE(panel->view().isZoomed());
    REQUIRE(waitFor([&]() { return rateChartConnections(*panel) >= first + 20; }, 5000));
    REQUIRE(capture.isRunning());
    CHECK(panel->view().isZoomed());
    CHECK(panel->view().visibleXRange().second == Approx(half).margin(1e-6));
    CHECK(panel->view().shownPoints(0) > 0);
    panel->view().resetZoom();
    const QString screenshots =
        QDir::current().filePath(QStringLiteral("screenshots/") + QGuiApplication::platformName());
    QDir().mkpath(screenshots);
    window.grab().save(screenshots + QStringLiteral("/live-capture-rate.png"));

    // The user selects a connection and looks at its client's TIME_WAIT and ports: the chart comes
    // with the next snapshot, and grows with the ones after it, before Stop.
    auto* connections = window.findChild<QTableView*>(QStringLiteral("connectionsView"));
    connections->selectRow(0);
    panel->setKind(ChartKind::HostPopulation);
    REQUIRE(waitFor([&]() { return hostChartPoints(*panel) > 0; }, 5000));
    REQUIRE(capture.isRunning());
    CHECK(panel->view().title().startsWith(QStringLiteral("TIME_WAIT and ephemeral ports of 127.0.0.1")));
    const QString hostTitle = panel->view().title();
    const size_t hostPoints = hostChartPoints(*panel);
    REQUIRE(waitFor([&]() { return hostChartPoints(*panel) > hostPoints; }, 5000));
    REQUIRE(capture.isRunning());
    CHECK_FALSE(window.results()->isComplete());
    CHECK(panel->view().title() != hostTitle);  // a higher peak of TIME_WAIT entries
    window.grab().save(screenshots + QStringLiteral("/live-capture-host.png"));
    // Another tab: the snapshots stop copying the host's series.
    tabs->setCurrentWidget(window.findChild<SequenceView*>(QStringLiteral("sequenceView")));
    CHECK_FALSE(panel->populationHost().has_value());
    tabs->setCurrentWidget(panel);
    CHECK(panel->populationHost().has_value());

    // Stop: the chart of the file written counts at least the connections the live chart showed.
    REQUIRE(traffic.waitForFinished(20000));
    panel->setKind(ChartKind::ConnectionRate);
    const size_t live = rateChartConnections(*panel);
    const int loadsBefore = test.loads.ready + test.loads.failed;
    window.stopCapture();
    REQUIRE(test.loads.waitBeyond(loadsBefore));
    REQUIRE(window.results()->isComplete());
    REQUIRE(waitFor([&]() { return panel->view().title().startsWith(QStringLiteral("Connection rate")); }, 5000));
    CHECK(rateChartConnections(*panel) >= live);
    QFile::remove(settings.outputPath);
}
