// The timeline's time axis: nanoseconds <-> pixels, zoom and pan, ruler ticks and time labels.
#include "timeline/timeline_axis.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace tcpscope::ui;

namespace {
// 2026-11-21 03:28:52.933682 UTC, the start of samples/proxy-nagle.pcap.
constexpr int64_t kSampleStartNs = 1'795'231'732'933'682'000;

double charWidth(const std::string& text) {
    return 7.0 * static_cast<double>(text.size());
}
}  // namespace

TEST_CASE("fit shows a range across the plot, ends on its edges", "[timeline][axis]") {
    const TimeRange range{kSampleStartNs, kSampleStartNs + 3'551'309'000};
    const TimeAxis axis = TimeAxis::fit(range, 200, 1000);
    CHECK(axis.toX(range.startNs) == Approx(200));
    CHECK(axis.toX(range.endNs) == Approx(1200));
    CHECK(axis.toNs(200) == range.startNs);
    CHECK(axis.toNs(1200) == range.endNs);
    CHECK(axis.visible(1000) == range);
}

TEST_CASE("time and pixels convert both ways to the nanosecond at epoch-sized times", "[timeline][axis]") {
    const TimeAxis axis(kSampleStartNs, 0, 1.0, 0);  // 1 ns per pixel
    for (const int64_t offset : {int64_t{0}, int64_t{1}, int64_t{999'999'937}, int64_t{3'551'309'001}}) {
        const int64_t ts = kSampleStartNs + offset;
        CHECK(axis.toX(ts) == Approx(static_cast<double>(offset)).margin(1e-6));
        CHECK(axis.toNs(axis.toX(ts)) == ts);
    }
}

TEST_CASE("zooming about a point keeps the time under it in place", "[timeline][axis]") {
    TimeAxis axis = TimeAxis::fit({kSampleStartNs, kSampleStartNs + 3'551'309'000}, 230, 970);
    const double anchorX = 512.25;
    const int64_t anchorNs = axis.toNs(anchorX);
    for (const double factor : {1.2, 2.0, 10.0, 1 / 3.0, 1000.0, 0.5}) {
        axis = axis.zoomedAbout(anchorX, factor);
        CHECK(axis.toX(anchorNs) == Approx(anchorX).margin(0.01));
        CHECK(std::llabs(axis.toNs(anchorX) - anchorNs) <= 1);
    }
    // Twenty notches in at one point, then twenty out: back to where it started.
    const TimeAxis start = axis;
    for (int notch = 0; notch < 20; ++notch) {
        axis = axis.zoomedAbout(700, 1.2);
    }
    for (int notch = 0; notch < 20; ++notch) {
        axis = axis.zoomedAbout(700, 1 / 1.2);
    }
    CHECK(axis.nsPerPx() == Approx(start.nsPerPx()));
    CHECK(axis.toX(anchorNs) == Approx(start.toX(anchorNs)).margin(0.01));
}

TEST_CASE("zoom stops at one nanosecond per pixel and at the given maximum", "[timeline][axis]") {
    const TimeAxis axis(kSampleStartNs, 0, 100, 0);
    CHECK(axis.zoomedAbout(50, 1e6).nsPerPx() == Approx(TimeAxis::kMinNsPerPx));
    CHECK(axis.zoomedAbout(50, 1e-6, 5000).nsPerPx() == Approx(5000));
    CHECK(axis.zoomedAbout(50, 1e6).toNs(50) == axis.toNs(50));
}

TEST_CASE("panning moves the view by whole pixels of time and clamping keeps the data in view", "[timeline][axis]") {
    const TimeRange capture{kSampleStartNs, kSampleStartNs + 1'000'000'000};
    const TimeAxis axis = TimeAxis::fit({capture.startNs, capture.startNs + 100'000'000}, 0, 1000);  // 100 µs/px
    const TimeAxis panned = axis.panned(250);
    CHECK(panned.toNs(0) == capture.startNs + 25'000'000);
    CHECK(panned.nsPerPx() == axis.nsPerPx());

    // Far past the end: a tenth of the view still shows the capture's end.
    const TimeAxis past = axis.panned(1e7).clampedTo(capture, 1000);
    CHECK(past.toX(capture.endNs) == Approx(100).margin(0.01));
    // Far before the start.
    const TimeAxis before = axis.panned(-1e7).clampedTo(capture, 1000);
    CHECK(before.toX(capture.startNs) == Approx(900).margin(0.01));
    // Zoomed out past the capture: all of it stays in view.
    const TimeAxis wide = TimeAxis(capture.startNs, -5e9, 1e7, 0).clampedTo(capture, 1000);
    CHECK(wide.toX(capture.startNs) >= 0);
    CHECK(wide.toX(capture.endNs) <= 1000);
}

TEST_CASE("tick steps are 1, 2 or 5 times a power of ten, then clock steps", "[timeline][axis]") {
    CHECK(niceStepNs(0.3) == 1);
    CHECK(niceStepNs(3) == 5);
    CHECK(niceStepNs(11) == 20);
    CHECK(niceStepNs(4'000'000) == 5'000'000);
    CHECK(niceStepNs(600'000'000) == 1'000'000'000);
    CHECK(niceStepNs(12e9) == 15'000'000'000);
    CHECK(niceStepNs(100e9) == 120'000'000'000);
    CHECK(niceStepNs(2e13) == 21'600'000'000'000);  // 6 h
}

TEST_CASE("clock, relative and duration labels", "[timeline][axis]") {
    CHECK(formatDateUtc(kSampleStartNs) == "2026-11-21");
    CHECK(formatClockUtc(kSampleStartNs, 1'000) == "03:28:52.933682");
    CHECK(formatClockUtc(kSampleStartNs, 100'000'000) == "03:28:52.9");
    CHECK(formatClockUtc(kSampleStartNs, 1'000'000'000) == "03:28:52");
    CHECK(formatClockUtc(kSampleStartNs, 120'000'000'000) == "03:28");
    CHECK(formatClockUtc(-1, 1) == "23:59:59.999999999");
    CHECK(formatRelative(1'200'000'000, 200'000'000) == "1.2 s");
    CHECK(formatRelative(1'250'000'000, 50'000'000) == "1.25 s");
    CHECK(formatRelative(0, 500'000) == "0.0000 s");
    CHECK(formatRelative(-2'000'000'000, 1'000'000'000) == "-2 s");
    CHECK(formatRelative(3'900'000'000'000, 600'000'000'000) == "1 h 05 min");
    CHECK(formatDuration(850) == "850 ns");
    CHECK(formatDuration(12'500) == "12.5 µs");
    CHECK(formatDuration(40'100'000) == "40.1 ms");
    CHECK(formatDuration(1'733'514'000) == "1733.5 ms");
    CHECK(formatDuration(12'500'000'000) == "12.5 s");
    CHECK(formatDuration(125'000'000'000) == "2 min 5 s");
}

TEST_CASE("ruler ticks fall on round times and their labels never overlap", "[timeline][axis]") {
    const TimeRange capture{kSampleStartNs, kSampleStartNs + 3'551'309'000};
    for (const double widthPx : {300.0, 970.0, 2400.0}) {
        for (const double zoom : {1.0, 37.0, 5000.0, 3e6}) {
            const TimeAxis axis = TimeAxis::fit(capture, 230, widthPx).zoomedAbout(230 + widthPx / 3, zoom);
            for (const bool absolute : {true, false}) {
                const RulerTicks ruler = rulerTicks(axis, widthPx, capture.startNs, absolute, charWidth);
                INFO("width " << widthPx << " zoom " << zoom << " absolute " << absolute);
                REQUIRE(ruler.ticks.size() >= 1);
                REQUIRE(ruler.ticks.size() <= static_cast<size_t>(widthPx / 20) + 1);
                const int64_t anchor = absolute ? 0 : capture.startNs;
                for (size_t i = 0; i < ruler.ticks.size(); ++i) {
                    CHECK((ruler.ticks[i].tsNs - anchor) % ruler.stepNs == 0);
                    if (i + 1 < ruler.ticks.size()) {
                        CHECK(ruler.ticks[i].x + charWidth(ruler.ticks[i].label) < ruler.ticks[i + 1].x);
                        CHECK(ruler.ticks[i].label != ruler.ticks[i + 1].label);
                    }
                }
            }
        }
    }
}
