// The charts a Wireshark user looks for under Statistics > TCP Stream Graphs and I/O Graphs, on
// the proxy sample: throughput both ways with its moving average, window scaling beside the
// time-sequence graph, the I/O graph with the packet list's display filters, and the 39 Nagle
// stalls drawn as 39 marks at the default zoom. The main window at 1366 x 768 and 1024 x 700 shows
// each chart in its Charts tab, saved as chart-1366-*.png and chart-1024-*.png next to the test
// binary for a person to look at.
#include <QApplication>
#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QTabWidget>
#include <QTest>
#include <QValueAxis>
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>

#include "charts/chart_panel.hpp"
#include "panels/capture_packets_panel.hpp"
#include "ui/window_test_support.hpp"
#include "window/main_window.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace Catch {
template <>
struct StringMaker<QString> {
    static std::string convert(const QString& text) { return '"' + text.toStdString() + '"'; }
};
}  // namespace Catch

namespace {

ResultsPtr proxySample() {
    static const ResultsPtr results = AnalysisResults::complete(
        analyzeCaptures({(std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap").string()}, {}));
    return results;
}

std::unique_ptr<ChartPanel> openPanel(uint32_t connection, ChartKind kind) {
    auto panel = std::make_unique<ChartPanel>();
    panel->resize(1366, 560);
    panel->show();
    panel->setKind(kind);
    panel->showConnection(proxySample(), connection);
    CHECK(QTest::qWaitFor([&panel]() { return !panel->isComputing(); }, 60'000));
    QApplication::processEvents();
    return panel;
}

const QValueAxis* axis(const ChartView& view, Qt::Orientation orientation) {
    return qobject_cast<const QValueAxis*>(view.chart()->axes(orientation).value(0));
}

// The names of the series, as the legend lists them: "first | second".
std::string seriesNames(const ChartView& view) {
    QStringList names;
    for (size_t index = 0; index < view.seriesCount(); ++index) {
        names << view.seriesName(index);
    }
    return names.join(QStringLiteral(" | ")).toStdString();
}

uint32_t stallsShown(const ChartView& view) {
    uint32_t stalls = 0;
    for (const StallMark& mark : view.stallMarksShown()) {
        stalls += mark.stalls;
    }
    return stalls;
}

// The "×N" labels of folded stall marks shown on `view`.
QStringList stallLabels(const ChartView& view) {
    QStringList labels;
    for (QGraphicsItem* item : view.chart()->childItems()) {
        if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item); text != nullptr && text->isVisible()) {
            labels << text->text();
        }
    }
    return labels;
}

}  // namespace

TEST_CASE("the 39 Nagle stalls are 39 marks at the default zoom, folded with a count when narrow") {
    // Flow 1: the proxy's connection to the server (41402 -> 3306), 39 small writes held by Nagle.
    const auto panel = openPanel(1, ChartKind::TimeSequence);
    ChartView& view = panel->view();
    REQUIRE(view.shadedSpanCount() == 39);
    REQUIRE(view.stallMarksShown().size() == 39);
    CHECK(std::all_of(view.stallMarksShown().begin(), view.stallMarksShown().end(),
                      [](const StallMark& mark) { return mark.stalls == 1; }));
    CHECK(stallLabels(view).isEmpty());
    // Zoomed in on the first two seconds: the stalls there, each as itself.
    view.setVisibleXRange(0, 2);
    CHECK(view.stallMarksShown().size() < 39);
    CHECK(view.stallMarksShown().front().stalls == 1);
    // The same stalls on a chart a thumbnail wide: stalls closer than a pixel share a mark that
    // counts them, and every stall is in one mark.
    std::vector<ShadedSpan> spans;
    const int64_t originNs = proxySample()->firstTsNs();
    for (const Finding& finding : proxySample()->findings()) {
        for (const FindingSpan& span : finding.spans) {
            if (span.connection == 1) {
                spans.push_back({secondsSince(originNs, span.startNs), secondsSince(originNs, span.endNs)});
            }
        }
    }
    ChartView thumbnail;
    thumbnail.resize(220, 200);
    thumbnail.show();
    thumbnail.reset(QStringLiteral("stalls"), QString(), QString(), originNs);
    view.resetZoom();
    const auto [fromX, toX] = view.visibleXRange();
    thumbnail.setShadedSpans(QStringLiteral("stalls (findings)"), spans);
    thumbnail.setFullRange(fromX, toX, 0, 1);
    QApplication::processEvents();
    CHECK(thumbnail.stallMarksShown().size() < 39);
    CHECK(stallsShown(thumbnail) == 39);
    const QStringList labels = stallLabels(thumbnail);
    REQUIRE(!labels.isEmpty());
    CHECK(labels.front().startsWith(QStringLiteral("×")));
}

TEST_CASE("throughput of the proxy's connection, both ways, per interval from the zoom") {
    const auto panel = openPanel(0, ChartKind::Throughput);
    const ChartView& view = panel->view();
    CHECK(view.title().startsWith(
        QStringLiteral("Throughput of flow 0: client 127.0.0.1:58562 ⇄ server 127.0.0.1:3307")));
    CHECK(view.title().contains(QStringLiteral("average of 10 intervals")));
    CHECK(seriesNames(view) ==
          std::string("to server, average | to server (6520 bytes) | to client, average | to client (6520 bytes)"));
    // 3.6 s over about 1300 px: 100 ms intervals (10 ms would be under 4 px), named on the axis.
    CHECK(view.intervalSeconds() == 0.1);
    CHECK(axis(view, Qt::Vertical)->titleText() == QStringLiteral("Payload bytes per 100 ms"));
    CHECK(axis(view, Qt::Vertical)->max() >= 163);  // a request in one interval fits
    CHECK(view.shownPoints(1) >= 2 * 36);           // a step per interval
    panel->view().setVisibleXRange(1.0, 1.2);
    CHECK(view.intervalSeconds() == 0.001);
    CHECK(axis(view, Qt::Vertical)->titleText() == QStringLiteral("Payload bytes per 1 ms"));
}

TEST_CASE("window scaling of the proxy's answers beside their time-sequence graph") {
    const auto panel = openPanel(0, ChartKind::WindowScaling);
    const ChartView& view = panel->view();
    CHECK(panel->direction() == Side::Server);
    CHECK(view.title().startsWith(QStringLiteral("Window scaling of flow 0: server 127.0.0.1:3307 → 127.0.0.1:58562")));
    CHECK(view.title().contains(QStringLiteral("window scale")));
    CHECK(seriesNames(view) ==
          std::string("receiver's window, scaled: 65536 bytes, above | bytes in flight (peak 128)"));
    // 64 KiB over 128 bytes: the scale follows the bytes in flight, the window is named above it.
    CHECK(axis(view, Qt::Vertical)->max() == Approx(128 * 1.3));
}

TEST_CASE("the I/O graph takes the packet list's display filters, one line each") {
    const auto panel = openPanel(0, ChartKind::IoGraph);
    CHECK(seriesNames(panel->view()) == std::string("all TCP packets (492)"));
    auto* filterBox = panel->findChild<QLineEdit*>(QStringLiteral("ioGraphFilter"));
    REQUIRE(filterBox != nullptr);
    CHECK(filterBox->isVisible());
    panel->setIoFilters(QStringLiteral("tcp.port == 3306; tcp.len > 0 && tcp.srcport == 3307"));
    CHECK(QTest::qWaitFor([&panel]() { return !panel->isComputing(); }, 60'000));
    // tshark -Y: 246 packets on port 3306; 80 answers of the proxy with data.
    CHECK(seriesNames(panel->view()) ==
          std::string("all TCP packets (492) | tcp.port == 3306 (246) | tcp.len > 0 && tcp.srcport == 3307 (80)"));
    CHECK(panel->problem().isEmpty());
    // The legend shows a filter's "<" and "&&" as typed (its labels are rich text).
    panel->setIoFilters(QStringLiteral("tcp.port == 3306; tcp.len > 0 && tcp.len < 64"));
    QStringList labels;
    for (const QLegendMarker* marker : panel->view().chart()->legend()->markers()) {
        labels << marker->label();
    }
    CHECK(labels.contains(QStringLiteral("tcp.len &gt; 0 &amp;&amp; tcp.len &lt; 64 (80)")));
    CHECK(axis(panel->view(), Qt::Vertical)->titleText().startsWith(QStringLiteral("Packets per ")));
    panel->setIoMeasure(IntervalMeasure::Bytes);
    CHECK(panel->view().seriesName(2) == QStringLiteral("tcp.len > 0 && tcp.len < 64 (2800)"));  // 80 x 35 bytes
    // The packet list's filter is drawn only until the user types filters of their own.
    panel->followPacketListFilter(QStringLiteral("tcp.port == 3306"));
    CHECK(panel->ioFilters() == QStringLiteral("tcp.port == 3306"));
    filterBox->setText(QStringLiteral("tcp.len > 0"));
    QTest::keyClick(filterBox, Qt::Key_Return);
    panel->followPacketListFilter(QStringLiteral("tcp.port == 58562"));
    CHECK(panel->ioFilters() == QStringLiteral("tcp.len > 0"));
    // A filter that does not compile is named beside the chart; the others still draw.
    panel->setIoFilters(QStringLiteral("tcp.port == 3306; tcp.nosuchfield"));
    CHECK(panel->view().seriesCount() == 2);
    CHECK(panel->problem().contains(QStringLiteral("tcp.nosuchfield")));
}

TEST_CASE("the proxy sample's charts in the main window at 1366 x 768 and 1024 x 700", "[screenshot]") {
    const QSize size = GENERATE(QSize(1366, 768), QSize(1024, 700));
    window_test::TestWindow test(true, size);
    MainWindow& window = test.window;
    window.openCaptures({QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap")});
    REQUIRE(test.loads.waitBeyond(0));
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    auto* charts = window.findChild<ChartPanel*>(QStringLiteral("chartPanel"));
    REQUIRE(tabs != nullptr);
    REQUIRE(charts != nullptr);
    window.selectConnection(1);
    tabs->setCurrentWidget(charts);
    const auto shoot = [&](ChartKind kind, const QString& name) {
        charts->setKind(kind);
        REQUIRE(QTest::qWaitFor([&]() { return !charts->isComputing(); }, 60'000));
        QApplication::processEvents();
        const QImage image = window.grab().toImage();
        CHECK(image.size() == size);
        CHECK(image.save(QApplication::applicationDirPath() + QStringLiteral("/chart-%1-").arg(size.width()) + name));
    };
    shoot(ChartKind::TimeSequence, QStringLiteral("time-sequence.png"));
    CHECK(charts->view().stallMarksShown().size() == 39);
    shoot(ChartKind::WindowScaling, QStringLiteral("window-scaling.png"));
    shoot(ChartKind::Throughput, QStringLiteral("throughput.png"));
    // The packet list's filter reaches the I/O graph: the proxy's small writes (the 35-byte halves
    // Nagle held) under all TCP packets.
    auto* packetList = window.findChild<CapturePacketsPanel*>(QStringLiteral("capturePackets"));
    REQUIRE(packetList != nullptr);
    packetList->applyFilter(QStringLiteral("tcp.len > 0 && tcp.len < 64"));
    REQUIRE(QTest::qWaitFor([&]() { return !packetList->filtering(); }, 60'000));
    QApplication::processEvents();
    tabs->setCurrentWidget(charts);
    shoot(ChartKind::IoGraph, QStringLiteral("io-graph.png"));
    CHECK(charts->ioFilters() == QStringLiteral("tcp.len > 0 && tcp.len < 64"));
    CHECK(charts->view().seriesCount() == 2);
}
