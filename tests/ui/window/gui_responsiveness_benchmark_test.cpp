// Responsiveness of the main window on a big capture: time to the first (partial) results and
// to the complete ones, the longest the event loop was kept waiting while loading, and the time
// per redraw of the timeline widget at three zooms while panning, and how long the exports keep the
// GUI thread (the shown timeline as SVG, PNG and PDF, the incident report), and the All packets list:
// the time per redraw while scrolling through the whole capture, how long each display filter takes
// on its pool thread and the event loop's longest wait meanwhile. A benchmark, not a test:
// hidden from the normal run ([.benchmark]); tests/ui/gui_benchmark.sh generates the capture,
// runs it several times and prints medians. Needs TCPSCOPE_GUI_BENCH_CAPTURE.
#include <QFile>
#include <QFileInfo>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <utility>
#include <vector>

#include "panels/capture_packets_panel.hpp"
#include "pictures/view_export_dialog.hpp"
#include "sequence/sequence_view.hpp"
#include "ui/window_test_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace window_test;

namespace {
double elapsedMs(const QElapsedTimer& timer) {
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

// The process's peak resident memory so far (VmHWM), in MiB; 0 where /proc does not say.
double peakResidentMb() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) {
        return 0;
    }
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:")) {
            return line.mid(6).trimmed().split(' ').front().toDouble() / 1024;
        }
    }
    return 0;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}
}  // namespace

TEST_CASE("main window responsiveness on a big capture", "[.benchmark][gui-benchmark]") {
    const QByteArray capture = qgetenv("TCPSCOPE_GUI_BENCH_CAPTURE");
    if (capture.isEmpty()) {
        WARN("TCPSCOPE_GUI_BENCH_CAPTURE not set: no capture to measure");
        return;
    }
    TestWindow test(true, {1600, 1000});
    MainWindow& window = test.window;
    QApplication::processEvents();

    double firstResultsMs = -1;
    double completeMs = -1;
    QElapsedTimer start;
    start.start();
    QObject::connect(&window, &MainWindow::resultsShown, [&](bool complete) {
        if (firstResultsMs < 0) {
            firstResultsMs = elapsedMs(start);
        }
        if (complete) {
            completeMs = elapsedMs(start);
        }
    });
    // The event loop's latency while loading: a 10 ms timer, and how late each tick comes.
    std::vector<double> gaps;
    QElapsedTimer lastTick;
    QTimer ticker;
    ticker.setInterval(10);
    QObject::connect(&ticker, &QTimer::timeout, [&]() {
        gaps.push_back(elapsedMs(lastTick));
        lastTick.restart();
    });
    const auto startTicking = [&]() {
        gaps.clear();
        lastTick.restart();
        ticker.start();
    };
    startTicking();
    window.openCaptures({QString::fromLocal8Bit(capture)});
    REQUIRE(waitFor([&test]() { return test.loads.ready > 0; }, 600'000));
    std::vector<double> loadGaps = std::exchange(gaps, {});
    auto* timeline = window.findChild<TimelineView*>(QStringLiteral("timelineView"));
    REQUIRE(timeline != nullptr);
    QElapsedTimer lanesStart;
    lanesStart.start();
    // After the complete results, until the timeline's lanes are in: the window is the user's again.
    REQUIRE(waitFor([timeline]() { return !timeline->isBuilding(); }, 600'000));
    ticker.stop();
    const double lanesMs = completeMs + elapsedMs(lanesStart);
    std::sort(loadGaps.begin(), loadGaps.end());
    const double worstGapMs = loadGaps.empty() ? 0 : loadGaps.back();
    const double p99GapMs = loadGaps.empty() ? 0 : loadGaps[loadGaps.size() * 99 / 100];
    const double worstLanesGapMs = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());

    const auto& results = *window.results();
    std::printf("gui benchmark: %llu packets, %zu connections, %zu findings\n",
                static_cast<unsigned long long>(results.counters().frames), results.connections().size(),
                results.findings().size());
    std::printf("first_results_ms %.0f\ncomplete_results_ms %.0f\ntimeline_lanes_ms %.0f\n", firstResultsMs, completeMs,
                lanesMs);
    std::printf("event_loop_worst_gap_ms %.1f\nevent_loop_p99_gap_ms %.1f\n", worstGapMs, p99GapMs);
    std::printf("peak_rss_until_lanes_mb %.0f\n", peakResidentMb());
    std::printf("event_loop_worst_gap_until_lanes_ms %.1f\n", worstLanesGapMs);

    window.findChild<QTabWidget*>(QStringLiteral("viewTabs"))->setCurrentWidget(timeline);
    QApplication::processEvents();
    const ui::TimeRange whole = timeline->model().captureRange();
    // The closer zooms look where the capture is busy, with lanes that have packets there in view:
    // around the first packet of the middle connection (in order of first packets, as the lanes
    // are), its lane scrolled into view. The lanes in view at first are the capture's first
    // connections, long over by its middle, which would leave the closer zooms empty.
    const auto& connections = results.connections();
    const auto middleConnection = static_cast<uint32_t>(connections.size() / 2);
    const int64_t middle = connections.empty() ? whole.startNs + whole.lengthNs() / 2
                                               : connections[middleConnection].firstTsNs;
    timeline->scrollToConnection(middleConnection);
    QApplication::processEvents();
    struct Zoom {
        const char* name;
        ui::TimeRange range;
    };
    for (const Zoom& zoom : {Zoom{"whole", whole}, Zoom{"1s", {middle - 500'000'000, middle + 500'000'000}},
                             Zoom{"10ms", {middle - 5'000'000, middle + 5'000'000}}}) {
        std::vector<double> frames;
        for (int frame = 0; frame < 40; ++frame) {
            // Pan a little each frame, as a drag does, so nothing is reused from the frame before.
            const int64_t shift = zoom.range.lengthNs() / 500 * frame;
            timeline->zoomToRange({zoom.range.startNs + shift, zoom.range.endNs + shift});
            QElapsedTimer frameTime;
            frameTime.start();
            timeline->viewport()->repaint();
            frames.push_back(elapsedMs(frameTime));
        }
        frames.erase(frames.begin(), frames.begin() + 5);  // warm-up
        std::printf("timeline_redraw_%s_ms %.2f (worst %.2f, %zu spans, %zu marks)\n", zoom.name, median(frames),
                    *std::max_element(frames.begin(), frames.end()), timeline->lastFrame().spans.size(),
                    timeline->lastFrame().marks.size());
    }

    // The exports run on the GUI thread: how long each keeps it, on the whole capture's timeline as
    // File > Export diagram writes it (every lane of the model, groups folded as shown), and the
    // incident report.
    timeline->zoomToFit();
    QApplication::processEvents();
    const auto* sequence = window.findChild<SequenceView*>(QStringLiteral("sequenceView"));
    REQUIRE(sequence != nullptr);
    QTemporaryDir out;
    TimelineRenderOptions withLegend;
    withLegend.legend = true;
    const QSizeF page = timeline->renderSize(std::max(800, timeline->width()), withLegend);
    for (const char* format : {"svg", "png", "pdf"}) {
        const QString path = out.filePath(QStringLiteral("timeline.%1").arg(QLatin1String(format)));
        QElapsedTimer exportTime;
        exportTime.start();
        const QString error = exportShownView(path, 1, *timeline, *sequence, false);
        const double ms = elapsedMs(exportTime);
        CHECK(error.isEmpty());
        std::printf("export_timeline_%s_ms %.0f (%.0f x %.0f px, %lld bytes)\n", format, ms, page.width(),
                    page.height(), static_cast<long long>(QFileInfo(path).size()));
    }
    QElapsedTimer reportTime;
    reportTime.start();
    CHECK(window.exportIncidentReportTo(out.filePath(QStringLiteral("report"))).isEmpty());
    std::printf("export_incident_report_ms %.0f (%lld bytes of PDF)\n", elapsedMs(reportTime),
                static_cast<long long>(QFileInfo(out.filePath(QStringLiteral("report/report.pdf"))).size()));

    // The All packets list: a redraw per page while scrolling through the whole capture, as
    // dragging the scroll bar does (rows are made only when shown), then each display filter on its
    // pool thread, timed to its rows shown, with the event loop's longest wait meanwhile; and a
    // filter typed while another still runs (the first is dropped, the window does not wait for it).
    auto* packetList = window.findChild<CapturePacketsPanel*>(QStringLiteral("capturePackets"));
    REQUIRE(packetList != nullptr);
    window.findChild<QTabWidget*>(QStringLiteral("viewTabs"))->setCurrentWidget(packetList);
    QApplication::processEvents();
    QTableView* list = packetList->view();
    QScrollBar* scroll = list->verticalScrollBar();
    std::vector<double> pages;
    for (int step = 0; step <= 200; ++step) {
        scroll->setValue(static_cast<int>(static_cast<int64_t>(scroll->maximum()) * step / 200));
        QElapsedTimer pageTime;
        pageTime.start();
        list->viewport()->repaint();
        pages.push_back(elapsedMs(pageTime));
    }
    std::printf("packet_list_page_ms %.2f (worst %.2f, %d rows, 201 pages from top to bottom)\n", median(pages),
                *std::max_element(pages.begin(), pages.end()), packetList->model().rowCount());
    const char* const expressions[] = {"tcp.analysis.flags", "tcp.flags.syn == 1 && tcp.flags.ack == 0",
                                       "tcp.analysis.flags && tcp.port == 3306", "tcp.stream == 500000",
                                       "frame.len > 100 && tcp.flags.fin == 1"};
    for (size_t filter = 0; filter < std::size(expressions); ++filter) {
        const char* expression = expressions[filter];
        startTicking();
        QElapsedTimer filterTime;
        filterTime.start();
        packetList->applyFilter(QString::fromLatin1(expression));
        const double applyMs = elapsedMs(filterTime);
        REQUIRE(waitFor([packetList]() { return !packetList->filtering(); }, 600'000));
        QApplication::processEvents();
        const double filterMs = elapsedMs(filterTime);
        ticker.stop();
        const double worst = gaps.empty() ? 0 : *std::max_element(gaps.begin(), gaps.end());
        std::printf(
            "packet_filter_%zu_ms %.0f (%s: %d rows; the window waited at most %.1f ms, %.1f ms of it in "
            "applyFilter)\n",
            filter + 1, filterMs, expression, packetList->model().rowCount(), worst, applyMs);
        std::printf("packet_filter_%zu_worst_gap_ms %.1f\n", filter + 1, worst);
    }
    QElapsedTimer retype;
    retype.start();
    packetList->applyFilter(QStringLiteral("frame.len > 100"));
    packetList->applyFilter(QStringLiteral("tcp.flags.reset == 1"));
    const double retypeMs = elapsedMs(retype);
    REQUIRE(waitFor([packetList]() { return !packetList->filtering(); }, 600'000));
    std::printf("packet_filter_retyped_ms %.1f (a second filter typed while the first runs: the GUI thread's time)\n",
                retypeMs);
    std::printf("peak_rss_mb %.0f\n", peakResidentMb());
}
