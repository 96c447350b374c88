#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "timeline/timeline_axis.hpp"
#include "timeline/timeline_model.hpp"

namespace tcpscope::ui {

/// A rectangle in target pixels (plain, so the layout needs no Qt).
struct LayoutRect {
    double x = 0;
    double y = 0;
    double w = 0;
    double h = 0;

    [[nodiscard]] double right() const { return x + w; }
    [[nodiscard]] double bottom() const { return y + h; }
    [[nodiscard]] bool contains(double px, double py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};

/// Font measures the layout needs.
struct LayoutMetrics {
    double lineHeightPx = 15;
    /// Width of `text` in pixels; null: 7 px per character.
    std::function<double(const std::string&)> textWidth;

    [[nodiscard]] double width(const std::string& text) const;
};

/// What to show and where: the target size, the time axis over the plot, the vertical scroll.
struct TimelineViewport {
    double widthPx = 800;
    double heightPx = 600;
    double gutterPx = 230;  ///< lane labels left of the plot
    TimeAxis axis;          ///< its leftPx is moved to gutterPx
    double scrollYPx = 0;   ///< rows scrolled out above the plot
    double foldPx = 3;      ///< marks and spans closer than this are drawn as one
    bool legend = true;     ///< a legend line at the bottom
    bool partial = false;   ///< results still loading: say that packets are to come
    uint32_t selectedConnection = kNoConnection;
    uint32_t selectedFinding = UINT32_MAX;
    int64_t cursorTsNs = kNoTime;  ///< a time to mark across the lanes (the selected packet), or kNoTime
    /// Only the rows that reach into [drawFromPx, drawToPx) of the frame are laid out: the part a
    /// painter's clip leaves of a picture millions of pixels tall.
    double drawFromPx = -std::numeric_limits<double>::infinity();
    double drawToPx = std::numeric_limits<double>::infinity();
    LayoutMetrics metrics;
};

enum class BoxRole : uint8_t {
    RulerBackground,
    GutterBackground,
    LaneStripe,  ///< every other lane
    LaneSelected,
    GroupHeader,
    OutsideCapture,  ///< before the first or after the last packet
    LifeBar,         ///< a connection from its first to its last packet
    ResetEnd,        ///< a connection ended by RST
    ExtraEvent,      ///< an event of an extra lane with its duration
    LegendBackground,
    LegendSwatch,  ///< style / cause tell the colour
    BarSwatch,     ///< a legend swatch of a population bar: style is its BarRole
};

enum class LineRole : uint8_t {
    GridLine,
    RulerTick,
    RulerBaseline,
    LaneSeparator,
    LegendSeparator,
    Cursor,  ///< the selected packet's time, across every lane and the ruler
    Capacity,  ///< a population row's limit (the port range), dashed
};

enum class TextRole : uint8_t {
    RulerAbsolute,  ///< wall clock (UTC)
    RulerRelative,  ///< seconds since the capture start
    RulerCaption,   ///< the date, what the rows mean
    LaneLabel,      ///< first line of a lane label
    LaneDetail,     ///< second line of a lane label
    GroupLabel,
    StallLabel,  ///< the cause and time lost of one stall or a cluster of stalls
    EventLabel,  ///< an extra lane event's label
    LegendLabel,
    Notice,  ///< e.g. "packets appear when loading completes"
};

enum class MarkSource : uint8_t { Packet, Event };

/// What a bar of the population view counts; the first four are the PopulationState values.
enum class BarRole : uint8_t {
    SynWait,
    Open,
    Stalled,
    TimeWait,
    NewConnections,
    SynRetransmissions,
    PortsInUse,
};

/// A run of pixel columns of a density strip (drawn at `level` opacity, 1..255) or one column
/// of a capture-wide row's bar chart (opaque, its height the count).
struct LayoutBar {
    LayoutRect rect;
    BarRole role = BarRole::Open;
    uint8_t level = 255;
};

struct LayoutBox {
    LayoutRect rect;
    BoxRole role = BoxRole::LaneStripe;
    uint16_t style = 0;  ///< markstyle bits (legend swatches)
    StallGroup cause = StallGroup::Other;
    bool causeSwatch = false;
};

struct LayoutLine {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    LineRole role = LineRole::GridLine;
};

struct LayoutText {
    LayoutRect rect;  ///< the text is elided to this width
    std::string text;
    TextRole role = TextRole::LaneLabel;
    bool alignRight = false;
    StallGroup cause = StallGroup::Other;
    uint32_t finding = UINT32_MAX;  ///< stall labels: the first finding they describe
    uint32_t row = UINT32_MAX;
};

/// One packet (count 1) or several folded into a band from x to x2.
struct LayoutMark {
    double x = 0;
    double x2 = 0;
    double y = 0;  ///< top of the band the mark is drawn in
    double h = 0;
    uint32_t count = 0;
    uint16_t style = 0;
    MarkSource source = MarkSource::Packet;
    uint32_t row = 0;   ///< index into TimelineModel::rows()
    uint64_t item = 0;  ///< packet index (first one when folded), or event position in its lane
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;
};

/// A stall (or several narrow ones of the same cause, folded) on a lane.
struct LayoutSpan {
    LayoutRect rect;
    StallGroup cause = StallGroup::Other;
    uint32_t finding = 0;   ///< the first span's finding
    uint32_t instance = 0;  ///< the first span's instance
    uint32_t connection = kNoConnection;
    uint32_t count = 1;
    int64_t startNs = 0;
    int64_t endNs = 0;
    int64_t lostNs = 0;  ///< sum of the folded spans' durations
    bool selected = false;
    bool instant = false;  ///< every folded span cost no time: drawn as a tick at startNs
    uint32_t row = 0;
};

/// A row as drawn in this frame.
struct LayoutRow {
    uint32_t row = 0;  ///< index into TimelineModel::rows()
    RowKind kind = RowKind::Connection;
    uint32_t index = 0;
    LayoutRect rect;       ///< the whole row, gutter included
    LayoutRect markBand;   ///< where packets or events are drawn
    size_t firstMark = 0;  ///< the row's marks: TimelineFrame::marks[firstMark, markEnd)
    size_t markEnd = 0;
    size_t firstSpan = 0;  ///< the row's spans: TimelineFrame::spans[firstSpan, spanEnd)
    size_t spanEnd = 0;
};

enum class HitKind : uint8_t { None, Ruler, Lane, Stall, Packets, Events };

/// What is under a point of a frame.
struct TimelineHit {
    HitKind kind = HitKind::None;
    RowKind rowKind = RowKind::Connection;
    uint32_t row = UINT32_MAX;
    uint32_t rowIndex = 0;                ///< connection id, group or extra lane of the row
    uint32_t connection = kNoConnection;  ///< the row's connection, or the stall's
    uint32_t finding = UINT32_MAX;
    uint32_t instance = 0;
    uint64_t item = 0;   ///< packet index or event position (the first, when folded)
    uint32_t count = 0;  ///< marks or spans folded under the point
    int64_t startNs = 0;
    int64_t endNs = 0;
    bool inGutter = false;
};

/// Everything one frame draws, in painting order per vector, in target pixels. Rows are clipped
/// to `lanesClip`; the ruler and the legend (the chrome) are drawn over them unclipped.
struct TimelineFrame {
    TimeAxis axis;
    LayoutRect plot;       ///< the lanes' time area
    LayoutRect lanesClip;  ///< rows, gutter included
    std::vector<LayoutRow> rows;
    std::vector<LayoutBox> boxes;
    std::vector<LayoutLine> lines;
    std::vector<LayoutSpan> spans;
    std::vector<LayoutMark> marks;
    std::vector<LayoutBar> bars;
    std::vector<LayoutText> texts;
    std::vector<LayoutBox> chromeBoxes;
    std::vector<LayoutLine> chromeLines;
    std::vector<LayoutText> chromeTexts;
    size_t entriesVisited = 0;  ///< marks and summary buckets read, for the benchmark

    [[nodiscard]] TimelineHit hitTest(double x, double y) const;
    [[nodiscard]] const LayoutRow* rowAt(double y) const;
};

/// The ruler's height for a line height.
double rulerHeightPx(double lineHeightPx);
/// The timeline's words for a group of stalls: the title of its kind ("Listen backlog overflow",
/// "Ephemeral port exhaustion"), one name per thing as everywhere else a person reads it.
std::string_view stallGroupTitle(StallGroup group);
/// The legend's height for a line height.
double legendHeightPx(double lineHeightPx);
/// Row heights that fit two lines of a font of `lineHeightPx` in a lane.
RowHeights rowHeightsFor(double lineHeightPx);

/// Lays out what `viewport` shows of `model`: visible rows only, marks folded below
/// viewport.foldPx, summaries instead of packets when zoomed out, labels that do not collide.
TimelineFrame prepareTimeline(const TimelineModel& model, const TimelineViewport& viewport);

}  // namespace tcpscope::ui
