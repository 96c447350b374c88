// The views of one connection during a live capture, as a user watches it: real write-write-read
// traffic on lo, the user selects the connection while the capture runs, and its packets table,
// its ladder and its time-sequence chart show its packets and grow with the next snapshots, all
// before Stop. Needs the right to capture (CI runs as root); skipped otherwise.
#include <QDir>
#include <QGuiApplication>
#include <QProcess>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>

#include "capture/live_capture_controller.hpp"
#include "charts/chart_panel.hpp"
#include "core/live/live_test_support.hpp"
#include "models/connections_model.hpp"
#include "views/sequence_view.hpp"
#include "window_test_support.hpp"

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

TEST_CASE("the selected connection's packets table and ladder and chart grow while a live capture on lo runs",
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

    // The user selects the connection as soon as it is listed, and looks at its ladder.
    auto* connections = window.findChild<QTableView*>(QStringLiteral("connectionsView"));
    REQUIRE(connections != nullptr);
    REQUIRE(waitFor([&]() { return connections->model()->rowCount() > 0; }, 10000));
    connections->selectRow(0);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    tabs->setCurrentWidget(window.findChild<SequenceView*>(QStringLiteral("sequenceView")));
    REQUIRE(capture.isRunning());
    const uint32_t connection = connections->currentIndex().data(ConnectionsModel::ConnectionIdRole).toUInt();

    // The table, and the ladder when it is the tab shown, hold exactly the connection's packets of
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
    window.grab().save(screenshots + QStringLiteral("/live-capture-ladder.png"));

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
