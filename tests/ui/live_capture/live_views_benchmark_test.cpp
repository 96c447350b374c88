// What the live views of a connection cost on a busy capture. A benchmark, not a test: hidden from
// the normal run ([.benchmark]).
// - Snapshot: a big capture (TCPSCOPE_GUI_BENCH_CAPTURE, e.g. /tmp/w1-1m.pcap) goes through the
//   engine, and at every 100,000 packets the packet index's snapshot and the GUI's whole partial
//   results (connections and findings copied, as a live capture's throttled update makes them)
//   are timed; then one update of the views of one connection (packets table, sequence diagram,
//   time-sequence chart) from one snapshot to the next.
// - Live: a capture on lo of 4 connections sending 100-byte segments as fast as Python can, with one
//   connection selected and its sequence diagram and chart shown in turn: the longest the
//   event loop waited (needs the right to capture).
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <vector>

#include "charts/chart_panel.hpp"
#include "core/live/live_test_support.hpp"
#include "live_capture/live_capture_controller.hpp"
#include "models/packets_model.hpp"
#include "sequence/sequence_view.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {

double elapsedMs(const QElapsedTimer& timer) { return static_cast<double>(timer.nsecsElapsed()) / 1e6; }

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

// The connection with the most packets.
uint32_t busiest(const AnalysisResults& results) {
    const auto& connections = results.connections();
    const auto packets = [](const Connection& connection) {
        return connection.from(Side::Client).packets + connection.from(Side::Server).packets;
    };
    return std::max_element(connections.begin(), connections.end(),
                            [&](const Connection& a, const Connection& b) { return packets(a) < packets(b); })
        ->id;
}

// A busy loopback load: CLIENTS connections each sending 100-byte writes with TCP_NODELAY for 12 s
// (tens of thousands of packets a second), to a server that reads them.
constexpr const char* kBulkTraffic = R"(
import socket, sys, threading, time
port, clients = int(sys.argv[1]), int(sys.argv[2])
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port))
listener.listen(16)
def drain(connection):
    while connection.recv(65536):
        pass
def serve():
    while True:
        threading.Thread(target=drain, args=(listener.accept()[0],), daemon=True).start()
threading.Thread(target=serve, daemon=True).start()
def send():
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    end = time.monotonic() + 12
    while time.monotonic() < end:
        sock.send(b"x" * 100)
    sock.close()
senders = [threading.Thread(target=send) for _ in range(clients)]
for sender in senders:
    sender.start()
for sender in senders:
    sender.join()
)";

// A 10 ms timer and how late each tick comes: the event loop's waits.
struct LoopLatency {
    std::vector<double> gaps;
    QElapsedTimer lastTick;
    QTimer ticker;
    LoopLatency() {
        ticker.setInterval(10);
        QObject::connect(&ticker, &QTimer::timeout, [this]() {
            gaps.push_back(elapsedMs(lastTick));
            lastTick.restart();
        });
        lastTick.start();
        ticker.start();
    }
    [[nodiscard]] double worst() const { return gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end()); }
};

}  // namespace

TEST_CASE("live views: snapshot and update cost on a big capture", "[.benchmark][live-views-benchmark]") {
    const QByteArray capture = qgetenv("TCPSCOPE_GUI_BENCH_CAPTURE");
    if (capture.isEmpty()) {
        WARN("TCPSCOPE_GUI_BENCH_CAPTURE not set: no capture to measure");
        return;
    }
    std::vector<double> snapshotUs;
    std::vector<double> partialMs;
    std::vector<double> partialWithPacketsMs;
    std::vector<ResultsPtr> kept;  // the snapshots at 500,000 and 600,000 packets
    uint64_t nextAt = 100'000;
    analyzeCaptures({capture.toStdString()}, {}, nullptr, nullptr, [&](const AnalysisCheckpoint& checkpoint) {
        const size_t packets = checkpoint.engine.packets().size();
        if (packets < nextAt) {
            return;
        }
        nextAt += 100'000;
        QElapsedTimer timer;
        timer.start();
        const std::shared_ptr<const PacketIndex> snapshot = checkpoint.engine.packets().snapshot();
        snapshotUs.push_back(elapsedMs(timer) * 1000);
        timer.restart();
        ResultsPtr plain = AnalysisResults::partial(checkpoint, 200'000);
        partialMs.push_back(elapsedMs(timer));
        plain.reset();
        timer.restart();
        ResultsPtr results = AnalysisResults::partialWithPackets(checkpoint, 200'000);
        partialWithPacketsMs.push_back(elapsedMs(timer));
        std::printf("at %zu packets, %zu connections, %zu findings: index snapshot %.1f us, partial results %.1f ms, "
                    "with the index %.1f ms\n",
                    packets, results->connections().size(), results->findings().size(), snapshotUs.back(),
                    partialMs.back(), partialWithPacketsMs.back());
        if (kept.size() < 2 && packets >= 500'000) {
            kept.push_back(std::move(results));
        }
    });
    REQUIRE(kept.size() == 2);
    std::printf("index_snapshot_us median %.1f max %.1f\npartial_results_ms median %.1f max %.1f\n", median(snapshotUs),
                *std::max_element(snapshotUs.begin(), snapshotUs.end()), median(partialMs),
                *std::max_element(partialMs.begin(), partialMs.end()));

    // One update of one connection's views, from the first snapshot to the next.
    const uint32_t connection = busiest(*kept[1]);
    PacketsModel packets;
    SequenceView sequenceView;
    sequenceView.resize(800, 900);
    sequenceView.show();
    ChartPanel charts;
    charts.setBackgroundThreshold(SIZE_MAX);  // computed here, to time it
    charts.resize(800, 600);
    charts.show();
    QElapsedTimer timer;
    timer.start();
    packets.setConnection(kept[0], connection);
    const double tableFirstMs = elapsedMs(timer);
    sequenceView.showConnection(kept[0], connection);
    charts.showConnection(kept[0], connection);
    QApplication::processEvents();
    timer.restart();
    packets.extendTo(kept[1]);
    const double tableMs = elapsedMs(timer);
    timer.restart();
    sequenceView.refreshResults(kept[1]);
    const double sequenceMs = elapsedMs(timer);
    timer.restart();
    charts.refreshResults(kept[1]);
    const double chartMs = elapsedMs(timer);
    const PacketIndex& index = *kept[1]->packets();
    std::printf(
        "update of connection %u (%d packets) from %zu to %zu packets: table %.2f ms (%.2f ms from scratch), "
        "sequence diagram %.2f ms, chart %.2f ms\n",
        connection, packets.rowCount(), kept[0]->packets()->size(), index.size(), tableMs, tableFirstMs, sequenceMs,
        chartMs);
}

TEST_CASE("live views: the event loop during a busy capture on lo", "[.benchmark][live-views-benchmark]") {
    if (!test::mayCapture()) {
        return;
    }
    constexpr int kClients = 4;
    TestWindow test(true, {1600, 1000});
    MainWindow& window = test.window;
    const uint16_t port = test::livePort(79);
    const CaptureSettings settings = loopbackCapture(port, QStringLiteral("tcpscope-live-views-bench"));
    REQUIRE(window.startCapture(settings));
    QProcess traffic;
    traffic.start(QStringLiteral("python3"), {QStringLiteral("-c"), QString::fromLatin1(kBulkTraffic),
                                              QString::number(port), QString::number(kClients)});
    REQUIRE(traffic.waitForStarted());
    auto* connections = window.findChild<QTableView*>(QStringLiteral("connectionsView"));
    REQUIRE(waitFor([&]() { return connections->model()->rowCount() >= kClients; }, 10000));
    // TCPSCOPE_LIVE_BENCH_NO_SELECTION=1: nothing selected, for the cost of the rest of the window.
    const bool select = qgetenv("TCPSCOPE_LIVE_BENCH_NO_SELECTION") != "1";
    if (select) {
        connections->selectRow(0);
    }
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    // The window shows each snapshot (resultsShown), then refreshes the selected connection's
    // views; a receiver connected after the window's runs when it has done both.
    int updates = 0;
    QElapsedTimer sinceShown;
    std::vector<double> connectionViewsMs;
    QObject::connect(&window, &MainWindow::resultsShown, [&]() { sinceShown.start(); });
    QObject::connect(&window.captureController(), &LiveCaptureController::resultsUpdated, [&]() {
        ++updates;
        if (sinceShown.isValid()) {
            connectionViewsMs.push_back(elapsedMs(sinceShown));
        }
    });
    LoopLatency latency;
    for (const char* tab : {"sequenceView", "chartPanel", "sequenceView", "chartPanel"}) {
        tabs->setCurrentWidget(tabs->findChild<QWidget*>(QString::fromLatin1(tab)));
        QTest::qWait(2000);
    }
    latency.ticker.stop();
    const ResultsPtr results = window.results();
    std::printf("live on lo: %d updates in 8 s, the last at %llu packets, %zu connections; selected connection "
                "%d packets in the table, its views refreshed in %.2f ms (median; worst %.2f ms); event loop worst "
                "wait %.1f ms, median %.1f ms\n",
                updates, static_cast<unsigned long long>(results->counters().tcp), results->connections().size(),
                window.findChild<QTableView*>(QStringLiteral("packetsView"))->model()->rowCount(),
                median(connectionViewsMs),
                connectionViewsMs.empty() ? 0 : *std::max_element(connectionViewsMs.begin(), connectionViewsMs.end()),
                latency.worst(),
                median(latency.gaps));
    REQUIRE(traffic.waitForFinished(30000));
    const int loadsBefore = test.loads.ready + test.loads.failed;
    window.stopCapture();
    REQUIRE(test.loads.waitBeyond(loadsBefore));
    QFile::remove(settings.outputPath);
}
