#pragma once
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "sequence/point_sequence.hpp"
#include "loading/analysis_results.hpp"
#include "present/sequence_diagram.hpp"
#include "present/traced_call.hpp"
#include "views/event_kind.hpp"

namespace tcpscope::ui {

/// The time column's text for `offsetNs` since the capture started: seconds with microseconds
/// ("0.021136", "59.999999"), from a minute on with minutes ("1:03.500000") and from an hour on
/// with hours ("1:02:03.000001"), so that no digit is lost in a long capture.
QString sequenceTimeText(int64_t offsetNs);

/// How the sequence diagram maps time to height. Time runs down: every arrow gets at least one row, and
/// a silence longer than a row's worth of time gets its true height, unless it is cut.
struct SequenceScale {
    double pixelsPerMs = 3.0;              ///< zoom: the height of one millisecond of silence
    bool compressGaps = true;              ///< cut silences longer than gapThresholdNs
    int64_t gapThresholdNs = 200'000'000;  ///< silences longer than this become a break mark
    double rowHeight = 30;                 ///< height of one arrow with its label, at any zoom
    double breakHeight = 40;               ///< height of a cut silence
    double slopePx = 7;                    ///< how far an arrow drops from sender to receiver
    double width = 1000;                   ///< width of the diagram in pixels

    static constexpr double kMinPixelsPerMs = 0.001;
    static constexpr double kMaxPixelsPerMs = 1000;
};

/// A system call of the traced process, drawn beside its lifeline (strace alignment).
struct SequenceSyscall {
    int64_t tsNs = 0;        ///< when it started, on the capture's clock
    int64_t durationNs = 0;  ///< how long it took (strace -T), 0 if unknown
    QString label;           ///< e.g. "sendto(35) = 35", "epoll_wait = 1"
    int lifeline = 0;        ///< 0 client, 1 server (or proxy), 2 server of a proxy diagram
    EventKind kind = EventKind::Other;
    uint32_t segmentFrame = 0;  ///< a write: the frame of the first segment carrying its bytes (0: none)
    std::optional<SyscallLocation> location{};  ///< its record in the results' alignment, if it comes from there
};

/// Arrows [first, end) of a diagram, for export and for the rows in view.
struct SequenceRowRange {
    size_t first = 0;
    size_t end = 0;
    [[nodiscard]] bool empty() const { return end <= first; }
};

/// What to paint for one viewport, in content coordinates (y = 0 is the top of the first row).
struct SequenceDrawList {
    struct Lifeline {
        double x = 0;
        QString role;       ///< "client", "proxy", "server"
        QString endpoints;  ///< "127.0.0.1:58562" (a proxy: both, one per line)
    };
    struct Arrow {
        size_t arrow = 0;   ///< index in SequenceDiagram::arrows()
        size_t packet = 0;  ///< position in the packet index
        uint32_t frame = 0;
        QPointF start;         ///< at the sender, at its capture time
        QPointF end;           ///< at the receiver, slopePx lower
        double labelLeft = 0;  ///< the label is centred between these (clear of a syscall lane)
        double labelRight = 0;
        QString label;         ///< SequenceDiagram::arrowLabel()
        QString shortLabel;    ///< SequenceDiagram::arrowShortLabel(), when the column is too narrow
        QString note;          ///< the stall cause it carries ("delayed ACK, 40.0 ms late"), or empty
        QString time;          ///< seconds since the capture started, for the time column
        double timeY = 0;      ///< where the time column names it: its start, or with capture points
                               ///< its row (when the point it was analysed from saw it), one row each
        bool pureAck = false;  ///< drawn thinner: no payload, no SYN/FIN/RST
        bool inStall = false;  ///< begins, releases or ends a stall: drawn in the stall colour
        bool labelBelow =
            false;  ///< the label goes under the line: the arrow before in its column has its label too close above
    };
    struct Bracket {
        size_t stall = 0;      ///< index in SequenceDiagram::stalls()
        double x = 0;          ///< the bracket's bar, beside the waiting side's lifeline
        double top = 0;        ///< the wait begins (the arrow that started it)
        double bottom = 0;     ///< the wait ends (the held segment leaves)
        double direction = 1;  ///< +1: serifs and label to the right of the bar, -1: to the left
        QRectF band;           ///< the waiting time across the connection's column, tinted
        QRectF labelRect;      ///< where the text goes (inside the band when it is tall enough)
        double receiverX = 0;  ///< the peer's lifeline, where the cause (the late ACK) is marked
        double causeY = -1;    ///< y of the arrow that released the wait, or -1
        QString text;          ///< "35 bytes held by Nagle for 40.1 ms until the delayed ACK"
        QString explanation;
        QString proof;  ///< what the system call trace says about it, or empty
    };
    struct Break {
        double top = 0;
        double bottom = 0;
        QString label;  ///< "2.35 s without packets"
    };
    struct Gap {
        double top = 0;     ///< below the earlier arrow
        double bottom = 0;  ///< above the later one
        QString label;      ///< "+46.4 ms": silences drawn to scale are measured in the time column
    };
    struct Syscall {
        double x = 0;          ///< lifeline
        double y = 0;          ///< its start on the time scale
        double height = 0;     ///< its duration on the scale (at least a tick)
        double labelY = 0;     ///< where its label goes: at y, or pushed down below the one before
        double direction = 1;  ///< side of the lifeline the label goes
        QString label;
        int lifeline = 0;
        EventKind kind = EventKind::Other;
        double segmentY = -1;  ///< a write: where the segment carrying its bytes leaves, or -1
        size_t syscall = 0;    ///< index in SequenceLayout::syscalls()
    };

    double top = 0;  ///< the viewport that was prepared
    double bottom = 0;
    double timeGutter = 104;  ///< SequenceLayout::timeGutter(): the left column, time then frame
    double frameColumn = 40;  ///< the frame numbers' part of it, at its right
    std::vector<Lifeline> lifelines;
    std::vector<Arrow> arrows;
    std::vector<Bracket> brackets;
    std::vector<Break> breaks;
    std::vector<Gap> gaps;
    std::vector<Syscall> syscalls;
};

/// The window-free layout of a sequence diagram: places every arrow on a time scale once (a prefix
/// of heights, 8 bytes per packet), and prepares draw lists for the rows in a viewport only, so a
/// connection of 50,000 packets is as quick to show as one of 50.
class SequenceLayout {
public:
    static constexpr double kLabelHeight = 17;  ///< above an arrow: its label
    static constexpr double kTimeGutter = 104;  ///< left column (time and frame of each arrow) at its narrowest
    static constexpr double kSideMargin = 120;  ///< beyond the outer lifelines: brackets, syscalls

    SequenceLayout() = default;
    /// `results` keeps the analysis the diagram reads alive.
    SequenceLayout(ResultsPtr results, std::shared_ptr<const SequenceDiagram> diagram, const SequenceScale& scale = {});

    /// The diagram of `connection`, or of it and its proxy partner (`serverSide`), from complete
    /// results; an empty layout for partial results or unknown ids.
    static SequenceLayout ofConnection(ResultsPtr results, uint32_t connection, const SequenceScale& scale = {});
    static SequenceLayout ofProxy(ResultsPtr results, uint32_t clientSide, uint32_t serverSide,
                                  const SequenceScale& scale = {});

    [[nodiscard]] bool isEmpty() const { return diagram_ == nullptr; }
    [[nodiscard]] const SequenceDiagram* diagram() const { return diagram_.get(); }
    [[nodiscard]] const ResultsPtr& results() const { return results_; }
    [[nodiscard]] const SequenceScale& scale() const { return scale_; }
    /// Changes zoom, compression or width; the rows are placed again.
    void setScale(const SequenceScale& scale);
    /// Syscalls to draw beside the lifelines (any order; kept sorted by time).
    void setSyscalls(std::vector<SequenceSyscall> syscalls);
    [[nodiscard]] const std::vector<SequenceSyscall>& syscalls() const { return syscalls_; }
    /// Several capture points: each arrow from its sighting at the sender's point to the one at the
    /// receiver's (pointTimesOf, set from the results' sightings when the layout is made); empty otherwise.
    [[nodiscard]] const SequencePointTimes& pointTimes() const { return pointTimes_; }
    /// Where arrow `row` starts and ends for lifelines at `xs`: at its row and slopePx lower, or with
    /// capture points at the y of its sightings (a sighting missing: slopePx from the other).
    [[nodiscard]] std::pair<QPointF, QPointF> arrowEnds(size_t row, const std::vector<double>& xs) const;

    [[nodiscard]] size_t rowCount() const { return anchors_.size(); }
    /// Height of the whole diagram in content coordinates.
    [[nodiscard]] double totalHeight() const;
    /// y where arrow `row` leaves its sender (its capture time).
    [[nodiscard]] double rowY(size_t row) const { return anchors_.at(row); }
    /// True if the silence before `row` is cut and drawn as a break mark.
    [[nodiscard]] bool breakBefore(size_t row) const { return row < breaks_.size() && breaks_[row] != 0; }
    /// y of capture time `tsNs`: exact at arrows, interpolated between them.
    [[nodiscard]] double yOfTime(int64_t tsNs) const;
    /// The capture time at `y`, the inverse of yOfTime.
    [[nodiscard]] int64_t timeAtY(double y) const;
    /// The rows whose arrows or labels reach into [top, bottom).
    [[nodiscard]] SequenceRowRange rowsIn(double top, double bottom) const;
    /// The content span [top, bottom) that shows `rows` with their labels.
    [[nodiscard]] QRectF contentRect(SequenceRowRange rows) const;
    /// Width of the left column: kTimeGutter, or more when the diagram's latest time
    /// ("1:02:03.123456") or its largest frame number needs it.
    [[nodiscard]] double timeGutter() const { return timeGutter_; }
    /// The frame numbers' part of the left column, at its right.
    [[nodiscard]] double frameColumn() const { return frameColumn_; }
    /// The x of each lifeline for the current width.
    [[nodiscard]] std::vector<double> lifelineXs() const;
    /// Where text between lifelines `a` and `b` may go: the column less insets and syscall lanes.
    [[nodiscard]] std::pair<double, double> columnTextSpan(size_t a, size_t b, double inset = 26) const;
    static constexpr double kSyscallLane = 130;  ///< width of the syscall labels beside a lifeline

    /// The draw list of the content between viewport.top() and viewport.bottom().
    [[nodiscard]] SequenceDrawList prepare(const QRectF& viewport) const;
    /// The arrow under `point` (content coordinates: on its line or its label), or kNoArrow.
    [[nodiscard]] size_t arrowAt(const QPointF& point) const;
    static constexpr size_t kNoSyscall = SIZE_MAX;
    /// The system call under `point` (on its bar or its label; an index in syscalls()), or kNoSyscall.
    [[nodiscard]] size_t syscallAt(const QPointF& point) const;

private:
    void place();
    // With capture points, arrows are placed by time and two in one column can be closer than a
    // label's height: the later one's label goes under its line.
    void placeLabels(const std::vector<double>& xs);
    // The lowest edge of the syscall labels of `lifeline` whose calls fall between `top` and
    // `bottom` (stacked as prepare() stacks them), or `top` if there are none.
    [[nodiscard]] double syscallLabelsBottom(size_t lifeline, double top, double bottom) const;

    ResultsPtr results_;
    std::shared_ptr<const SequenceDiagram> diagram_;
    SequenceScale scale_;
    std::vector<double> anchors_;        // y of each arrow's start
    std::vector<int64_t> layoutTs_;      // running maximum of capture times, for time lookups
    std::vector<uint8_t> breaks_;        // 1 if the silence before the row is cut
    std::vector<uint8_t> labelsBelow_;   // 1 if the row's label goes under its line (capture points)
    std::vector<size_t> stallReach_;     // running maximum of stalls' end arrows, for lower_bound
    std::vector<size_t> stallQuietRow_;  // per stall: the row after the silence that holds its text, or kNoArrow
    std::vector<SequenceSyscall> syscalls_;
    double timeGutter_ = kTimeGutter;
    double frameColumn_ = 40;
    std::vector<uint8_t> syscallLifelines_;  // 1 where a lifeline has syscalls (their lane takes room)
    SequencePointTimes pointTimes_;
    double reachAbovePx_ = 0;  // how far an arrow's start can be above its row (capture points)
    double reachBelowPx_ = 0;  // how far its end can be below its row, at least slopePx
    double tailPx_ = 30;       // below the last row: a row, or down to the lowest arrow's end
};

}  // namespace tcpscope::ui
