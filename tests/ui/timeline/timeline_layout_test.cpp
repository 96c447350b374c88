// The timeline's prepare(viewport) -> draw list step, without a window: visible rows only,
// folding, labels, and what a point hits.
#include "timeline/timeline_layout.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "ui/timeline_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace timeline_test;

namespace {
constexpr int64_t kT0 = 1'795'231'732'000'000'000;
constexpr int64_t kMs = 1'000'000;

TimelineViewport viewportOver(ui::TimeRange range, double width = 1000, double height = 600) {
    TimelineViewport viewport;
    viewport.widthPx = width;
    viewport.heightPx = height;
    viewport.gutterPx = 200;
    viewport.axis = TimeAxis::fit(range, 200, width - 200);
    return viewport;
}

size_t marksInRow(const TimelineFrame& frame, uint32_t row) {
    return static_cast<size_t>(std::count_if(frame.marks.begin(), frame.marks.end(),
                                             [row](const LayoutMark& mark) { return mark.row == row; }));
}

// Two connections, 0.5 s each; connection 0 has a Nagle finding with three stalls.
TimelineModel smallModel() {
    SyntheticCapture capture = syntheticCapture(2, 101, 5 * kMs, 0, kT0);
    capture.findings.push_back(nagleFinding(4, 0, kT0 + 100 * kMs, {{0, 40}, {100, 42}, {200, 44}}));
    TimelineModel model = buildModel(capture, 101, 5 * kMs, 0);
    model.setRowHeights({40, 24});
    return model;
}
}  // namespace

TEST_CASE("a frame lays out only the rows in view", "[timeline][layout]") {
    const SyntheticCapture capture = syntheticCapture(500, 4, kMs, kMs, kT0);
    TimelineModel model = buildModel(capture, 4, kMs, kMs);
    model.setRowHeights({40, 24});
    TimelineViewport viewport = viewportOver(model.captureRange());
    viewport.scrollYPx = 40 * 100 + 15;  // row 100 partly scrolled out
    const TimelineFrame frame = prepareTimeline(model, viewport);
    REQUIRE_FALSE(frame.rows.empty());
    CHECK(frame.rows.front().row == 100);
    CHECK(frame.rows.front().rect.y == Approx(frame.plot.y - 15));
    CHECK(frame.rows.size() <= static_cast<size_t>(frame.plot.h / 40) + 2);
    CHECK(frame.rows.back().rect.y < frame.plot.bottom());
    for (const LayoutMark& mark : frame.marks) {
        CHECK(mark.row >= 100);
        CHECK(mark.row <= frame.rows.back().row);
    }
}

TEST_CASE("a million packets in a lane fold to about a third of the width per direction", "[timeline][layout]") {
    // One connection, a packet every 10 µs for 10 s.
    const size_t packets = 1'000'000;
    const SyntheticCapture capture = syntheticCapture(1, packets, 10'000, 0, kT0);
    TimelineModel model = buildModel(capture, packets, 10'000, 0);
    TimelineViewport viewport = viewportOver(model.captureRange(), 1200);
    const TimelineFrame whole = prepareTimeline(model, viewport);
    const double plotWidth = whole.plot.w;
    CHECK(marksInRow(whole, 0) <= 2 * (static_cast<size_t>(plotWidth / 3) + 1));
    CHECK(marksInRow(whole, 0) >= 2 * static_cast<size_t>(plotWidth / 3 * 0.85));
    CHECK(whole.entriesVisited <= static_cast<size_t>(8 * plotWidth));
    // No mark covers a pixel another mark of its direction starts on.
    for (size_t i = 1; i < whole.marks.size(); ++i) {
        if (whole.marks[i].y == whole.marks[i - 1].y) {
            CHECK(whole.marks[i].x >= whole.marks[i - 1].x + 3);
        }
    }

    // Zoomed to 1 ms: 100 packets, each its own mark at its own time.
    viewport.axis = TimeAxis::fit({kT0 + 5'000 * kMs + 5'000, kT0 + 5'001 * kMs + 5'000}, 200, 1000);
    const TimelineFrame close = prepareTimeline(model, viewport);
    REQUIRE(marksInRow(close, 0) == 100);
    for (const LayoutMark& mark : close.marks) {
        CHECK(mark.count == 1);
        CHECK(mark.firstTsNs == kT0 + static_cast<int64_t>(mark.item) * 10'000);
        CHECK(mark.x == Approx(close.axis.toX(mark.firstTsNs)));
    }
}

TEST_CASE("stall spans are drawn where the stalls are and labelled with their cause", "[timeline][layout]") {
    const TimelineModel model = smallModel();
    const TimelineViewport viewport = viewportOver(model.captureRange());
    const TimelineFrame frame = prepareTimeline(model, viewport);
    REQUIRE(frame.spans.size() == 3);
    const LayoutSpan& second = frame.spans[1];
    CHECK(second.cause == StallGroup::NagleDelayedAck);
    CHECK(second.finding == 4);
    CHECK(second.rect.x == Approx(frame.axis.toX(kT0 + 200 * kMs)));
    CHECK(second.rect.right() == Approx(frame.axis.toX(kT0 + 242 * kMs)));

    std::vector<const LayoutText*> labels;
    for (const LayoutText& text : frame.texts) {
        if (text.role == TextRole::StallLabel) {
            labels.push_back(&text);
        }
    }
    REQUIRE_FALSE(labels.empty());
    for (const LayoutText* label : labels) {
        CHECK(label->text.find("Nagle + delayed ACK") != std::string::npos);
    }
    // At this zoom (100 ms are 160 px) a label is wider than the gap to the next stall: stalls
    // share labels ("2 × Nagle + delayed ACK · 82.0 ms"), and every stall is told once.
    CHECK(labels.size() < 3);
    CHECK(labels[0]->text == "2 × Nagle + delayed ACK · 82.0 ms");
    size_t told = 0;
    for (const LayoutText* label : labels) {
        const size_t times = label->text.find(" × ");
        told += times == std::string::npos ? 1 : std::stoul(label->text.substr(0, times));
    }
    CHECK(told == 3);

    // Zoomed in, each stall has its own label, and no two overlap.
    TimelineViewport zoomed = viewport;
    zoomed.axis = TimeAxis::fit({kT0 + 90 * kMs, kT0 + 350 * kMs}, 200, 800);
    const TimelineFrame close = prepareTimeline(model, zoomed);
    std::vector<LayoutRect> placed;
    for (const LayoutText& text : close.texts) {
        if (text.role == TextRole::StallLabel) {
            for (const LayoutRect& other : placed) {
                CHECK((text.rect.right() <= other.x || other.right() <= text.rect.x));
            }
            placed.push_back(text.rect);
        }
    }
    CHECK(placed.size() == 3);
}

TEST_CASE("narrow stalls fold, and a selected finding is marked", "[timeline][layout]") {
    SyntheticCapture capture = syntheticCapture(1, 2, 1000 * kMs, 0, kT0);
    std::vector<std::pair<double, double>> instances;
    for (int i = 0; i < 1000; ++i) {
        instances.emplace_back(i * 0.5, 0.1);  // 1000 stalls of 0.1 ms, 0.5 ms apart
    }
    capture.findings.push_back(nagleFinding(9, 0, kT0, instances));
    const TimelineModel model = buildModel(capture, 2, 1000 * kMs, 0);
    TimelineViewport viewport = viewportOver(model.captureRange());
    viewport.selectedFinding = 9;
    const TimelineFrame frame = prepareTimeline(model, viewport);
    CHECK(frame.spans.size() <= static_cast<size_t>(frame.plot.w / 3) + 1);
    uint32_t folded = 0;
    for (const LayoutSpan& span : frame.spans) {
        folded += span.count;
        CHECK(span.selected);
    }
    CHECK(folded == 1000);
}

TEST_CASE("hit testing finds the packet, the stall, the lane and the ruler under a point", "[timeline][layout]") {
    const TimelineModel model = smallModel();
    TimelineViewport viewport = viewportOver({kT0 + 80 * kMs, kT0 + 160 * kMs});  // 80 ms over 800 px
    const TimelineFrame frame = prepareTimeline(model, viewport);
    const uint32_t laneOfZero = static_cast<uint32_t>(*model.rowOfConnection(0));
    const LayoutRow* row = nullptr;
    for (const LayoutRow& candidate : frame.rows) {
        row = candidate.row == laneOfZero ? &candidate : row;
    }
    REQUIRE(row != nullptr);

    // A packet: marks are 5 ms = 50 px apart here, each its own.
    const LayoutMark* packet = nullptr;
    for (const LayoutMark& mark : frame.marks) {
        if (mark.row == laneOfZero && mark.count == 1 && mark.firstTsNs == kT0 + 120 * kMs) {
            packet = &mark;
        }
    }
    REQUIRE(packet != nullptr);
    TimelineHit hit = frame.hitTest(packet->x + 2, packet->y + packet->h / 2);
    CHECK(hit.kind == HitKind::Packets);
    CHECK(hit.item == packet->item);
    CHECK(hit.connection == 0);
    CHECK(hit.count == 1);

    // The middle of the stall from 100 to 140 ms, away from packets (at 100, 105, ... ms).
    const double stallX = frame.axis.toX(kT0 + 112'500'000);
    hit = frame.hitTest(stallX, row->markBand.y + row->markBand.h / 2);
    CHECK(hit.kind == HitKind::Stall);
    CHECK(hit.finding == 4);
    CHECK(hit.startNs == kT0 + 100 * kMs);
    CHECK(hit.endNs == kT0 + 140 * kMs);

    // The lane after the stall, between packets.
    hit = frame.hitTest(frame.axis.toX(kT0 + 152'500'000), row->markBand.y + row->markBand.h / 2);
    CHECK(hit.kind == HitKind::Lane);
    CHECK(hit.connection == 0);
    CHECK(hit.rowKind == RowKind::Connection);

    // The lane's name in the gutter.
    hit = frame.hitTest(50, row->rect.y + 5);
    CHECK(hit.kind == HitKind::Lane);
    CHECK(hit.inGutter);
    CHECK(hit.connection == 0);

    CHECK(frame.hitTest(500, 5).kind == HitKind::Ruler);
    CHECK(frame.hitTest(500, viewport.heightPx - 3).kind == HitKind::None);  // the legend
}

TEST_CASE("extra lanes draw their events with labels where there is room, and are hit", "[timeline][layout]") {
    TimelineModel model = smallModel();
    TimelineLane lane;
    lane.label = "proxy (pid 30376)";
    lane.attachedConnection = 0;
    lane.events = {{kT0 + 10 * kMs, 30 * kMs, "epoll_wait"},
                   {kT0 + 200 * kMs, 0, "write 35"},
                   {kT0 + 200 * kMs + 1000, 0, "write 35"}};
    model.setExtraLanes({lane});
    const TimelineViewport viewport = viewportOver(model.captureRange());
    const TimelineFrame frame = prepareTimeline(model, viewport);
    const auto extraRow = std::find_if(frame.rows.begin(), frame.rows.end(),
                                       [](const LayoutRow& row) { return row.kind == RowKind::Extra; });
    REQUIRE(extraRow != frame.rows.end());
    std::vector<const LayoutMark*> events;
    for (const LayoutMark& mark : frame.marks) {
        if (mark.source == MarkSource::Event) {
            events.push_back(&mark);
        }
    }
    REQUIRE(events.size() == 2);  // the two writes 1 µs apart fold
    CHECK(events[0]->x2 - events[0]->x == Approx(30 * kMs / frame.axis.nsPerPx()));
    CHECK(events[1]->count == 2);
    const auto labelled = std::count_if(frame.texts.begin(), frame.texts.end(), [](const LayoutText& text) {
        return text.role == TextRole::EventLabel && text.text == "epoll_wait";
    });
    CHECK(labelled == 1);
    const TimelineHit hit = frame.hitTest(events[0]->x + 5, extraRow->markBand.y + 2);
    CHECK(hit.kind == HitKind::Events);
    CHECK(hit.rowKind == RowKind::Extra);
    CHECK(hit.item == 0);
}

TEST_CASE("with nothing open the ruler shows no clock (no 1970 date)", "[timeline][layout]") {
    const TimelineModel empty;
    const TimelineFrame frame = prepareTimeline(empty, viewportOver({0, 1'000'000'000}));
    for (const LayoutText& text : frame.chromeTexts) {
        CHECK(text.role != TextRole::RulerAbsolute);
        CHECK(text.role != TextRole::RulerRelative);
        CHECK(text.text.find("19") != 0);
    }
}

TEST_CASE("the ruler shows clock and relative labels, the legend names what is present", "[timeline][layout]") {
    const TimelineModel model = smallModel();
    const TimelineFrame frame = prepareTimeline(model, viewportOver(model.captureRange()));
    size_t clock = 0;
    size_t relative = 0;
    bool date = false;
    bool nagleInLegend = false;
    for (const LayoutText& text : frame.chromeTexts) {
        clock += text.role == TextRole::RulerAbsolute ? 1 : 0;
        relative += text.role == TextRole::RulerRelative ? 1 : 0;
        date = date || (text.role == TextRole::RulerCaption && text.text == "2026-11-21 UTC");
        nagleInLegend = nagleInLegend || (text.role == TextRole::LegendLabel && text.text == "Nagle + delayed ACK");
        CHECK(text.rect.right() <= 1000 + 1);
    }
    CHECK(clock >= 3);
    CHECK(relative >= 3);
    CHECK(date);
    CHECK(nagleInLegend);
    const auto zero = std::find_if(frame.chromeTexts.begin(), frame.chromeTexts.end(), [](const LayoutText& text) {
        return text.role == TextRole::RulerRelative && text.text.rfind("0", 0) == 0 &&
               text.text.find("s") != std::string::npos;
    });
    REQUIRE(zero != frame.chromeTexts.end());
    CHECK(zero->rect.x == Approx(frame.axis.toX(kT0) + 3));
}
