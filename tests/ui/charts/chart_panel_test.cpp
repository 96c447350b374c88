// The chart panel on real captures: the series each chart shows, reduced to at most two points
// per pixel column and reduced again on zoom (a generated 200,000-packet transfer shows its
// real segments when zoomed in), the palette followed in dark mode, and the one render function.
// The main window's Charts tab follows the selection. PNGs of every chart are written next to
// the test binary (chart-*.png) for a person to look at.
#include "charts/chart_panel.hpp"

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QEventLoop>
#include <QFile>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QValueAxis>
#include <QXYSeries>
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>

#include "core/series/long_transfer.hpp"
#include "pictures/view_export_dialog.hpp"
#include "ui/pictures/pdf_print_size.hpp"
#include "window/main_window.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

ResultsPtr sample(const char* name) {
    return AnalysisResults::complete(
        analyzeCaptures({(std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name).string()}, {}));
}

QString pngPath(const QString& name) {
    return QApplication::applicationDirPath() + QStringLiteral("/") + name;
}

// The panel grabbed as the user sees it, saved as a PNG beside the test binary.
QImage grabbed(ChartPanel& panel, const QString& name) {
    QApplication::processEvents();
    const QImage image = panel.grab().toImage();
    image.save(pngPath(name));
    return image;
}

// Pixels of `image` that differ clearly from `background`.
size_t inkedPixels(const QImage& image, const QColor& background) {
    size_t count = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (std::abs(pixel.lightness() - background.lightness()) > 40) {
                ++count;
            }
        }
    }
    return count;
}

qsizetype columnBudget(const ChartView& view) {
    return 2 * static_cast<qsizetype>(view.chart()->plotArea().width()) + 2;
}

const QValueAxis* axis(const ChartView& view, Qt::Orientation orientation) {
    return qobject_cast<const QValueAxis*>(view.chart()->axes(orientation).value(0));
}

QStringList seriesNames(const ChartView& view) {
    QStringList names;
    for (size_t index = 0; index < view.seriesCount(); ++index) {
        names << view.seriesName(index);
    }
    return names;
}

// A panel on the (offscreen) screen, following the selection of `connection` in `results`.
std::unique_ptr<ChartPanel> openPanel(const ResultsPtr& results, uint32_t connection) {
    auto panel = std::make_unique<ChartPanel>();
    panel->resize(1000, 560);
    panel->show();
    panel->showConnection(results, connection);
    return panel;
}

// Waits for a chart computed on a pool thread to be shown.
bool chartReady(const ChartPanel& panel) {
    return QTest::qWaitFor([&panel]() { return !panel.isComputing(); }, 60'000);
}

}  // namespace

TEST_CASE("time-sequence and RTT of the Nagle sample follow the selected connection") {
    const ResultsPtr results = sample("proxy-nagle.pcap");
    const auto opened = openPanel(results, 0);
    ChartPanel& panel = *opened;
    // Both sides sent 6520 bytes (40 requests of 163, 40 answers of 128 + 35): a tie goes to the server.
    CHECK(panel.direction() == Side::Server);
    panel.setDirection(Side::Client);
    CHECK(panel.view().title().contains(QStringLiteral("client 127.0.0.1:58562")));
    panel.setDirection(Side::Server);
    const ChartView& view = panel.view();
    // The client's window (64 KiB) is far above 6.5 kB of data: named, not drawn flat.
    REQUIRE(seriesNames(view) == QStringList{QStringLiteral("receive window (ACK + window): above"),
                                             QStringLiteral("ACK"), QStringLiteral("segments (80)"),
                                             QStringLiteral("retransmissions (0)")});
    CHECK(view.sourcePoints(2) == 160);
    CHECK(view.shownPoints(2) > 40);  // 80 answers over 3.5 s: most land in columns of their own
    CHECK(view.shownPoints(2) <= 160);
    CHECK(view.title().contains(QStringLiteral("127.0.0.1:3307")));
    CHECK(axis(view, Qt::Horizontal)->titleText() == QStringLiteral("Time since capture start (s)"));
    CHECK(axis(view, Qt::Vertical)->titleText() == QStringLiteral("Relative sequence number (bytes)"));
    CHECK(axis(view, Qt::Vertical)->max() == Approx(6522 * 1.1));  // the data fills the height
    // The connection's stalls (its findings' spans) are shaded behind the series, on both charts.
    size_t stallsOnIt = 0;
    for (const Finding& finding : results->findings()) {
        stallsOnIt += static_cast<size_t>(std::count_if(finding.spans.begin(), finding.spans.end(),
                                                        [](const FindingSpan& span) { return span.connection == 0; }));
    }
    CHECK(stallsOnIt > 0);
    CHECK(view.shadedSpanCount() == stallsOnIt);
    const QImage sequence = grabbed(panel, QStringLiteral("chart-time-sequence.png"));
    CHECK(inkedPixels(sequence, panel.palette().color(QPalette::Base)) > 5000);

    panel.setKind(ChartKind::Rtt);
    REQUIRE(view.seriesCount() == 1);
    CHECK(view.seriesName(0).startsWith(QStringLiteral("RTT samples (82;")));
    CHECK(axis(view, Qt::Vertical)->titleText() == QStringLiteral("RTT: segment to its ACK (ms)"));
    // The proxy's 35-byte answers wait ~47 ms for the client's delayed ACK: the axis shows them.
    CHECK(axis(view, Qt::Vertical)->max() >= 47.584);
    CHECK(axis(view, Qt::Vertical)->max() < 100);
    CHECK(view.shadedSpanCount() == stallsOnIt);
    grabbed(panel, QStringLiteral("chart-rtt.png"));

    // Another selection redraws for that connection.
    panel.showConnection(results, 1);
    CHECK(panel.view().title().contains(QStringLiteral("flow 1")));
}

TEST_CASE("TIME_WAIT and ports of the churning host, with the limit it ran into") {
    const ResultsPtr results = sample("churn-exhaustion.pcap");
    const auto opened = openPanel(results, 0);
    ChartPanel& panel = *opened;
    panel.setKind(ChartKind::HostPopulation);
    const ChartView& view = panel.view();
    // The client kept to ports 40000-40099: 100 ports, all in use, far below the 28232 of the
    // range, which the title names instead of flattening the lines against it.
    REQUIRE(seriesNames(view) == QStringList{QStringLiteral("ports in use to 127.0.0.1:9000 (peak 100)"),
                                             QStringLiteral("TIME_WAIT (closed first as client) (peak 100)"),
                                             QStringLiteral("ports the client used: 100")});
    CHECK(view.title().contains(QStringLiteral("peak 100 of 28232 ports")));
    CHECK(view.title().contains(QStringLiteral("port range 32768-60999 off scale")));
    CHECK(axis(view, Qt::Vertical)->max() == Approx(110));
    for (size_t index = 0; index < 2; ++index) {
        CHECK(view.shownPoints(index) <= columnBudget(view));
        CHECK(view.shownPoints(index) >= 4);
    }
    const QImage image = grabbed(panel, QStringLiteral("chart-host-population.png"));
    CHECK(inkedPixels(image, panel.palette().color(QPalette::Base)) > 5000);
}

TEST_CASE("connection rate of the backlog overflow, binned to the zoom") {
    const ResultsPtr results = sample("backlog-overflow.pcap");
    const auto opened = openPanel(results, kNoConnection);
    ChartPanel& panel = *opened;
    panel.setKind(ChartKind::ConnectionRate);  // needs no connection
    const ChartView& view = panel.view();
    REQUIRE(view.seriesCount() == 2);
    CHECK(view.title() == QStringLiteral("Connection rate: 20 new connections, 90 SYN retransmissions"));
    CHECK(view.sourcePoints(0) == 20);
    CHECK(view.sourcePoints(1) == 90);
    // 36 s over ~900 px: 1 s bins, two points each; 20 SYNs in the first second.
    CHECK(view.shownPoints(0) == 2 * 36);
    const auto highest = [&](size_t index) {
        double top = 0;
        for (const QPointF& point : view.series(index)->points()) {
            top = std::max(top, point.y());
        }
        return top;
    };
    CHECK(highest(0) == 20);
    CHECK(highest(1) == 18);  // the first round of retransmitted SYNs, 1 s after the burst
    grabbed(panel, QStringLiteral("chart-connection-rate.png"));
    // Zoomed to the first second, bins of 10 ms: the burst is 2000 new connections per second.
    panel.view().setVisibleXRange(0, 1);
    CHECK(highest(0) == 2000);
    CHECK(axis(view, Qt::Vertical)->max() >= 2000);
}

TEST_CASE("zooming into a long transfer shows its real segments") {
    const ResultsPtr results =
        AnalysisResults::complete(test::analyzeLongTransfer(200'000, "tcpscope-chart-bulk.pcap"));
    REQUIRE(results->connections().size() == 1);

    const auto opened = openPanel(results, 0);
    ChartPanel& panel = *opened;
    ChartView& view = panel.view();
    // 200,000 packets: computed on a pool thread while the view says so.
    CHECK(panel.isComputing());
    CHECK(view.title().startsWith(QStringLiteral("Computing")));
    REQUIRE(chartReady(panel));
    REQUIRE(view.seriesCount() == 4);
    const size_t segmentPoints = view.sourcePoints(2);
    CHECK(segmentPoints > 200'000);  // two points per data segment
    CHECK(view.shownPoints(2) <= columnBudget(view));
    CHECK(view.shownPoints(1) <= columnBudget(view));
    grabbed(panel, QStringLiteral("chart-bulk-full.png"));

    // Zoom to 0.1 % of the transfer: every segment there is drawn, as it is.
    const auto [fromX, toX] = view.visibleXRange();
    const double middle = (fromX + toX) / 2;
    const double width = (toX - fromX) / 1000;
    view.setVisibleXRange(middle, middle + width);
    const QList<QPointF> shown = view.series(2)->points();
    REQUIRE(shown.size() >= 3);
    CHECK(shown.size() <= columnBudget(view));
    qsizetype inside = 0;
    for (const QPointF& point : shown) {
        inside += (point.x() >= middle && point.x() <= middle + width) ? 1 : 0;
    }
    CHECK(inside >= 2);
    CHECK(inside == shown.size() - 2);  // all of them, plus a neighbour on each side
    // The wheel zooms back out; double-click shows everything.
    view.zoomX(1000, middle);
    CHECK(view.visibleXRange().first == Approx(fromX));
    CHECK(view.visibleXRange().second == Approx(toX));
}

TEST_CASE("a chart computed for an earlier selection is never shown") {
    const ResultsPtr results = sample("proxy-nagle.pcap");
    ChartPanel panel;
    panel.setBackgroundThreshold(0);  // every chart on a pool thread, as big ones are
    panel.resize(1000, 560);
    panel.show();
    QStringList shown;
    QObject::connect(&panel, &ChartPanel::chartShown, [&]() { shown << panel.view().title(); });

    // Flow 0, then flow 1 and its RTT before the first result is in: only the last is shown.
    panel.showConnection(results, 0);
    CHECK(panel.isComputing());
    panel.showConnection(results, 1);
    panel.setKind(ChartKind::Rtt);
    REQUIRE(chartReady(panel));
    QThreadPool::globalInstance()->waitForDone();
    QApplication::processEvents();
    REQUIRE(shown.size() == 1);
    CHECK(shown.front().startsWith(QStringLiteral("Round-trip time of flow 1")));
    CHECK(panel.view().title() == shown.front());
    CHECK(panel.view().seriesCount() == 1);

    // The selection changes while hidden and the running job ends then: its result is dropped,
    // and showing the panel computes the chart of the new selection.
    shown.clear();
    panel.setKind(ChartKind::TimeSequence);  // job for flow 1 starts
    CHECK(panel.isComputing());
    panel.hide();
    panel.showConnection(results, 0);
    QThreadPool::globalInstance()->waitForDone();
    QApplication::processEvents();
    CHECK(shown.isEmpty());
    CHECK_FALSE(panel.view().title().contains(QStringLiteral("flow 1")));
    panel.show();
    REQUIRE(chartReady(panel));
    REQUIRE(shown.size() == 1);
    CHECK(shown.front().startsWith(QStringLiteral("Time-sequence of flow 0")));
    CHECK(panel.view().seriesCount() == 4);
}

TEST_CASE("charts follow a dark palette and render for exports") {
    const ResultsPtr results = sample("proxy-nagle.pcap");
    ChartPanel panel;
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(37, 37, 38));
    dark.setColor(QPalette::Base, QColor(30, 30, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    dark.setColor(QPalette::Mid, QColor(80, 80, 80));
    panel.setPalette(dark);
    panel.resize(900, 500);
    panel.show();
    panel.showConnection(results, 0);
    const ChartView& view = panel.view();
    CHECK(view.chart()->backgroundBrush().color() == QColor(37, 37, 38));
    CHECK(view.chart()->plotAreaBackgroundBrush().color() == QColor(30, 30, 30));
    CHECK(axis(view, Qt::Horizontal)->labelsColor() == QColor(230, 230, 230));
    for (size_t index = 0; index < view.seriesCount(); ++index) {
        CHECK(view.series(index)->color().lightness() > 128);  // light lines on the dark plot
    }
    const QImage screen = grabbed(panel, QStringLiteral("chart-time-sequence-dark.png"));
    CHECK(inkedPixels(screen, QColor(30, 30, 30)) > 5000);

    // The export path: render() at twice the size, title and lines included.
    const QSize size = view.size() * 2;
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    view.render(painter, QRectF(QPointF(0, 0), size));
    painter.end();
    image.save(pngPath(QStringLiteral("chart-render-2x.png")));
    CHECK(inkedPixels(image, QColor(30, 30, 30)) > 4 * 5000);
    const auto [fromX, toX] = view.visibleXRange();
    CHECK(fromX < 0.001);
    CHECK(toX > 3.55);
}

TEST_CASE("the main window's Charts tab follows the selected connection") {
    MainWindow window;
    window.resize(1500, 900);
    window.show();
    QEventLoop loading;
    bool ready = false;
    QObject::connect(&window, &MainWindow::resultsReady, &loading, [&]() {
        ready = true;
        loading.quit();
    });
    QTimer::singleShot(30'000, &loading, &QEventLoop::quit);
    window.openCaptures({QStringLiteral(TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap")});
    loading.exec();
    REQUIRE(ready);
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
    auto* charts = window.findChild<ChartPanel*>(QStringLiteral("chartPanel"));
    REQUIRE(tabs != nullptr);
    REQUIRE(charts != nullptr);
    // The Nagle finding of flow 1 selects its connection and its first evidence packet, a small
    // write of the proxy's client side (41402 -> 3306): the charts show that direction.
    const auto& findings = window.results()->findings();
    const auto nagle = std::find_if(findings.begin(), findings.end(), [](const Finding& finding) {
        return finding.connection == 1 && finding.kind == FindingKind::DelayedAckStall;
    });
    REQUIRE(nagle != findings.end());
    window.selectFinding(nagle->id);
    CHECK(charts->connection() == 1);
    CHECK(charts->direction() == Side::Client);
    tabs->setCurrentWidget(charts);
    CHECK(charts->view().title().startsWith(QStringLiteral("Time-sequence of flow 1: client 127.0.0.1:41402")));
    window.selectConnection(0);
    CHECK(charts->view().title().startsWith(QStringLiteral("Time-sequence of flow 0")));
    charts->setKind(ChartKind::Rtt);
    QApplication::processEvents();
    CHECK(window.grab().toImage().save(pngPath(QStringLiteral("chart-main-window.png"))));
}

TEST_CASE("File > Export diagram writes the chart that is shown", "[export]") {
    const ResultsPtr results = sample("proxy-nagle.pcap");
    const auto opened = openPanel(results, 0);
    const ChartView& view = opened->view();
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("chart.svg"));
    REQUIRE(exportChart(svg, 1, view, results.get()).isEmpty());
    QFile file(svg);
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    CHECK(text.contains(view.title().toHtmlEscaped()));
    CHECK(text.contains(QStringLiteral("proxy-nagle.pcap")));
    const QString png = dir.filePath(QStringLiteral("chart.png"));
    REQUIRE(exportChart(png, 2, view, results.get()).isEmpty());
    CHECK(QImage(png).width() == 2 * std::max(800, view.width()));
    const QString pdf = dir.filePath(QStringLiteral("chart.pdf"));
    REQUIRE(exportChart(pdf, 1, view, results.get()).isEmpty());
    pdf_print::checkPrintsLegibly(pdf);
    CHECK(exportChart(dir.filePath(QStringLiteral("chart.gif")), 1, view, results.get())
              .contains(QStringLiteral("must end in .svg, .png or .pdf")));
}
