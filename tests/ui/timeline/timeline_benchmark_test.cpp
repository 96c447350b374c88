// Time per frame of the timeline with a million packets in 2,000 connections: prepare() (the
// draw list) and painting it into an image. A benchmark, not a test: hidden from the normal run
// ([.benchmark]); run with `ui_tests "[timeline-benchmark]" -s`.
#include <QApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>

#include "analysis/capture_analysis.hpp"
#include "loading/analysis_results.hpp"
#include "timeline/timeline_layout.hpp"
#include "timeline/timeline_paint.hpp"
#include "timeline/timeline_view.hpp"
#include "ui/timeline_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace timeline_test;

namespace {
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct FrameTimes {
    double prepareMs = 0;
    double paintMs = 0;
    double worstMs = 0;
    size_t marks = 0;
    size_t spans = 0;
    size_t visited = 0;
};

FrameTimes measure(const TimelineModel& model, TimelineViewport viewport, QImage& image, const TimelineColors& colors,
                   const QFont& font, int frames) {
    FrameTimes times;
    for (int frame = 0; frame < frames; ++frame) {
        // Pan a pixel per frame, as a drag does, so nothing is cached between frames.
        viewport.axis = viewport.axis.panned(1);
        const auto start = Clock::now();
        const TimelineFrame prepared = prepareTimeline(model, viewport);
        const double prepareMs = msSince(start);
        const auto paintStart = Clock::now();
        {
            QPainter painter(&image);
            paintTimelineFrame(painter, prepared, colors, font);
        }
        const double paintMs = msSince(paintStart);
        times.prepareMs += prepareMs / frames;
        times.paintMs += paintMs / frames;
        times.worstMs = std::max(times.worstMs, prepareMs + paintMs);
        times.marks = prepared.marks.size();
        times.spans = prepared.spans.size();
        times.visited = prepared.entriesVisited;
    }
    return times;
}
}  // namespace

TEST_CASE("timeline frame time with 1 million packets in 2,000 connections", "[.benchmark][timeline-benchmark]") {
    constexpr uint32_t kConnections = 2000;
    constexpr size_t kPacketsEach = 500;
    constexpr int64_t kT0 = 1'795'231'732'000'000'000;
    constexpr int64_t kMs = 1'000'000;
    // Connection i starts at i * 25 ms and sends a packet every 20 ms for 10 s: 60 s in all.
    SyntheticCapture capture = syntheticCapture(kConnections, kPacketsEach, 20 * kMs, 25 * kMs, kT0);
    for (uint32_t id = 0; id < kConnections; id += 2) {
        std::vector<std::pair<double, double>> stalls;
        for (int stall = 0; stall < 10; ++stall) {
            stalls.emplace_back(stall * 900.0, 40.0);
        }
        capture.findings.push_back(nagleFinding(id / 2, id, capture.connections[id].firstTsNs + 100 * kMs, stalls));
    }
    const auto buildStart = Clock::now();
    TimelineModel model = buildModel(capture, kPacketsEach, 20 * kMs, 25 * kMs);
    const double buildMs = msSince(buildStart);
    REQUIRE(model.packetCount() == kConnections * kPacketsEach);

    const QFont font = QApplication::font();
    const QFontMetricsF metrics(font);
    model.setRowHeights(rowHeightsFor(std::ceil(metrics.height())));
    const auto groupStart = Clock::now();
    model.setGrouping(LaneGrouping::ServerEndpoint);
    const double groupMs = msSince(groupStart);
    model.setGrouping(LaneGrouping::Connection);

    const QSize size(1920, 1080);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    const TimelineColors colors = TimelineColors::fromPalette(QApplication::palette());
    TimelineViewport viewport;
    viewport.widthPx = size.width();
    viewport.heightPx = size.height();
    viewport.gutterPx = 250;
    viewport.metrics.lineHeightPx = std::ceil(metrics.height());
    viewport.metrics.textWidth = [&metrics](const std::string& text) {
        return metrics.horizontalAdvance(QString::fromStdString(text));
    };
    const double plotWidth = size.width() - viewport.gutterPx;
    const ui::TimeRange whole = model.captureRange();

    std::printf("timeline benchmark: %zu packets, %u connections, %zu stall spans, %dx%d px\n", model.packetCount(),
                kConnections, model.spans().size(), size.width(), size.height());
    std::printf("  model build (summaries): %.1f ms; grouping by server: %.1f ms\n", buildMs, groupMs);
    struct Case {
        const char* name;
        ui::TimeRange range;
        double scrollYPx;
    };
    const int64_t middle = whole.startNs + whole.lengthNs() / 2;
    const std::vector<Case> cases = {
        {"whole capture (60 s), top lanes", whole, 0},
        {"whole capture, middle lanes", whole, model.totalHeightPx() / 2},
        {"6 s", {middle - 3000 * kMs, middle + 3000 * kMs}, model.totalHeightPx() / 2},
        {"600 ms", {middle - 300 * kMs, middle + 300 * kMs}, model.totalHeightPx() / 2},
        {"6 ms", {middle - 3 * kMs, middle + 3 * kMs}, model.totalHeightPx() / 2},
    };
    // Grouped by server, one header lane holds half the packets.
    for (const Case& scenario : cases) {
        viewport.axis = TimeAxis::fit(scenario.range, viewport.gutterPx, plotWidth);
        viewport.scrollYPx = scenario.scrollYPx;
        measure(model, viewport, image, colors, font, 3);  // warm up
        const FrameTimes times = measure(model, viewport, image, colors, font, 30);
        std::printf(
            "  %-34s prepare %6.2f ms  paint %6.2f ms  worst %6.2f ms  (%zu marks, %zu spans, %zu entries read)\n",
            scenario.name, times.prepareMs, times.paintMs, times.worstMs, times.marks, times.spans, times.visited);
        CHECK(times.visited < model.packetCount() / 10);
    }
    model.setGrouping(LaneGrouping::ServerEndpoint);
    viewport.axis = TimeAxis::fit(whole, viewport.gutterPx, plotWidth);
    viewport.scrollYPx = 0;
    const FrameTimes grouped = measure(model, viewport, image, colors, font, 30);
    std::printf("  %-34s prepare %6.2f ms  paint %6.2f ms  worst %6.2f ms  (%zu marks, %zu entries read)\n",
                "grouped by server, whole capture", grouped.prepareMs, grouped.paintMs, grouped.worstMs, grouped.marks,
                grouped.visited);
    // The population view: groups folded to their density strips (every member's life and
    // stalls counted per pixel column, each frame).
    const auto populationStart = Clock::now();
    model.setGrouping(LaneGrouping::ClientToServer);
    const double populationGroupMs = msSince(populationStart);
    model.setAllGroupsCollapsed(true);
    const FrameTimes populations = measure(model, viewport, image, colors, font, 30);
    std::printf("  %-34s prepare %6.2f ms  paint %6.2f ms  worst %6.2f ms  (%zu groups, grouping %.1f ms)\n",
                "populations folded, whole capture", populations.prepareMs, populations.paintMs, populations.worstMs,
                model.groups().size(), populationGroupMs);
    image.save(QStringLiteral("timeline-benchmark.png"));
}

// A real capture of a million packets: `tcpscope-cli generate --workload w2 --packets 1000000
// --connections 2000 --snaplen 96 --out w2.pcap`, then TCPSCOPE_TIMELINE_CAPTURE=w2.pcap.
TEST_CASE("timeline on a generated capture of a million packets", "[.benchmark][timeline-benchmark]") {
    const QByteArray path = qgetenv("TCPSCOPE_TIMELINE_CAPTURE");
    if (path.isEmpty()) {
        WARN("TCPSCOPE_TIMELINE_CAPTURE not set: no capture to measure");
        return;
    }
    auto start = Clock::now();
    const ResultsPtr results = AnalysisResults::complete(analyzeCaptures({path.toStdString()}, AnalysisOptions{}));
    const double analyzeMs = msSince(start);
    start = Clock::now();
    const TimelineModel model = TimelineModel::fromResults(*results);
    const double buildMs = msSince(start);
    std::printf("generated capture: %zu packets, %zu connections, %zu findings\n", model.packetCount(),
                model.connections().size(), results->findings().size());
    std::printf("  analysis (core): %.0f ms; timeline model from results: %.1f ms\n", analyzeMs, buildMs);

    TimelineView view;
    view.resize(1920, 1080);
    view.setBackgroundBuildThreshold(SIZE_MAX);
    view.setResults(results);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    const ui::TimeRange whole = view.model().captureRange();
    const int64_t middle = whole.startNs + whole.lengthNs() / 2;
    for (const ui::TimeRange range : {whole, ui::TimeRange{middle - 500'000'000, middle + 500'000'000},
                                  ui::TimeRange{middle - 5'000'000, middle + 5'000'000}}) {
        const int frames = 30;
        double totalMs = 0;
        double worstMs = 0;
        for (int frame = 0; frame < frames; ++frame) {
            const auto frameStart = Clock::now();
            QPainter painter(&image);
            view.render(painter, QRectF(0, 0, 1920, 1080), {range.startNs + frame * 1000, range.endNs + frame * 1000});
            painter.end();
            const double ms = msSince(frameStart);
            totalMs += ms;
            worstMs = std::max(worstMs, ms);
        }
        std::printf("  render %.3f s of capture: %.2f ms per frame (worst %.2f ms)\n",
                    static_cast<double>(range.lengthNs()) / 1e9, totalMs / frames, worstMs);
        if (range == whole) {
            image.save(QStringLiteral("timeline-generated.png"));
        }
    }
}

namespace {
// Resident memory of this process, from /proc (Linux).
double residentMb() {
    long pages = 0;
    long resident = 0;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) {
            resident = 0;
        }
        std::fclose(statm);
    }
    return static_cast<double>(resident) * 4096 / (1024 * 1024);
}
}  // namespace

TEST_CASE("timeline memory: a million packets in 2,000 long or 200,000 short connections",
          "[.benchmark][timeline-benchmark]") {
    constexpr int64_t kT0 = 1'795'231'732'000'000'000;
    for (const auto& [connections, packetsEach] : {std::pair<uint32_t, size_t>{2000, 500}, {200'000, 5}}) {
        const SyntheticCapture capture = syntheticCapture(connections, packetsEach, 1'000'000, 50'000, kT0);
        const double before = residentMb();
        const auto start = Clock::now();
        const TimelineModel model = buildModel(capture, packetsEach, 1'000'000, 50'000);
        const double buildMs = msSince(start);
        const double lanesMb = static_cast<double>(model.connections().capacity() * sizeof(ConnectionLane) +
                                                   model.rows().capacity() * sizeof(LaneRow)) /
                               (1024 * 1024);
        std::printf(
            "%u connections x %zu packets: model built in %.0f ms; marks and summaries %.1f MB, lanes and rows "
            "%.1f MB (resident +%.0f MB)\n",
            connections, packetsEach, buildMs, static_cast<double>(model.markMemoryBytes()) / (1024 * 1024), lanesMb,
            residentMb() - before);
        CHECK(model.packetCount() == connections * packetsEach);
    }
}
