#pragma once
#include <QAbstractScrollArea>
#include <QFutureWatcher>
#include <QPointF>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "loading/analysis_results.hpp"
#include "present/traced_call.hpp"
#include "timeline/timeline_builds.hpp"
#include "timeline/timeline_layout.hpp"
#include "timeline/timeline_model.hpp"
#include "timeline/timeline_paint.hpp"
#include "views/note_pins.hpp"

class QMenu;

namespace tcpscope::ui {

/// Options of one render() beyond the time range.
struct TimelineRenderOptions {
    bool legend = true;
    /// First row pixel at the top of the lanes; negative: where the view is scrolled now.
    double scrollYPx = -1;
    /// The part of the picture to lay out (TimelineViewport::drawFromPx): render() sets it from the
    /// painter's clip.
    double drawFromPx = -std::numeric_limits<double>::infinity();
    double drawToPx = std::numeric_limits<double>::infinity();
};

/// `options` limited to the rows `painter`'s clip leaves of a picture drawn at `target`, `marginPx`
/// more above and below.
TimelineRenderOptions clippedTo(const QPainter& painter, const QRectF& target, TimelineRenderOptions options,
                                double marginPx = 0);

/// What a context menu of the timeline is about, for those who add to it (notes).
struct TimelineContext {
    std::optional<SyscallLocation> syscall;  ///< the system call under the pointer (a syscall lane's event)
    std::optional<TimeRange> selection;      ///< the span selected with Shift+drag, if the pointer is in it
    int64_t tsNs = kNoTime;                  ///< the time under the pointer (kNoTime over the gutter)
};

/// Every connection as a lane over time: packets as marks (by direction; retransmissions, zero
/// windows, duplicate ACKs stand out), the connection's life as a thin bar, stalls as coloured
/// spans labelled with their cause, extra lanes (system calls) on the same axis, and a ruler
/// with UTC and capture-relative time. Wheel or +/- zoom about the pointer, drag or arrow keys
/// pan, Home shows everything; the wheel over the lane names (or Shift+wheel) scrolls lanes.
/// Shift+drag selects a time span (a translucent band; a click or Escape clears it).
/// Lanes open grouped by population (client host -> server endpoint; a group of one is its lane
/// alone), a group of more than kFoldedGroupConnections folded to its density strip, under
/// capture-wide rows: a click or Enter opens a group, * opens all, / folds all; selecting a
/// connection opens its group.
/// Draws only what is in view, from summaries when zoomed out.
class TimelineView : public QAbstractScrollArea {
    Q_OBJECT

public:
    /// Results with at least this many packets, or with a lane for every kPacketsPerLane of them,
    /// are summarised on a pool thread.
    static constexpr size_t kBackgroundBuildPackets = 200'000;
    /// A lane costs the build about as much as this many packets.
    static constexpr size_t kPacketsPerLane = 10;

    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    /// Shows `results` (null: nothing). Partial results show lanes from the connections' first
    /// and last times and the findings so far; the view keeps its zoom unless the user has not
    /// touched it yet, in which case it shows the whole capture.
    void setResults(ResultsPtr results);
    [[nodiscard]] const ResultsPtr& results() const { return results_; }
    /// Lanes of events from outside the capture; kept across setResults(). The system calls of the
    /// results' strace alignment get lanes of their own (below their connections) without it.
    void setExtraLanes(std::vector<TimelineLane> lanes);
    /// Whether the connect() calls the trace saw fail with EADDRNOTAVAIL get a lane per server,
    /// above the connections (on by default; the report's pictures draw their own).
    void setFailedConnectLanesShown(bool shown);
    void setGrouping(LaneGrouping grouping);
    /// Folds (or unfolds) every group of the current grouping to its header lane.
    void setAllGroupsCollapsed(bool collapsed);
    /// The notes to draw (pins and labels at their times), on screen and in render().
    void setNotePins(NotePins pins);
    [[nodiscard]] LaneGrouping grouping() const { return grouping_; }

    [[nodiscard]] const TimelineModel& model() const { return *model_; }
    /// True while a large capture's lanes are being built on a pool thread.
    [[nodiscard]] bool isBuilding() const { return building_; }
    /// Packets from which the lanes are built on a pool thread (kBackgroundBuildPackets; a tenth as
    /// many connections also do).
    void setBackgroundBuildThreshold(size_t packets) { backgroundBuildPackets_ = packets; }
    [[nodiscard]] TimeRange visibleRange() const;
    /// The span selected with Shift+drag, if any.
    [[nodiscard]] const std::optional<TimeRange>& selectedSpan() const { return selectedSpan_; }
    void setSelectedSpan(std::optional<TimeRange> span);
    /// What a context menu at `viewportPoint` would be about.
    [[nodiscard]] TimelineContext contextAt(const QPointF& viewportPoint) const;
    [[nodiscard]] uint32_t selectedConnection() const { return selectedConnection_; }
    [[nodiscard]] uint32_t selectedFinding() const { return selectedFinding_; }
    /// The time of the selected packet's cursor, or kNoTime.
    [[nodiscard]] int64_t cursorTsNs() const { return cursorTsNs_; }
    /// The frame painted last on screen (for tests and tooltips).
    [[nodiscard]] const TimelineFrame& lastFrame() const { return frame_; }
    /// What render() would draw into a target of `size` showing `range`.
    [[nodiscard]] TimelineFrame prepareFrame(const QSizeF& size, TimeRange range,
                                             const TimelineRenderOptions& options = {}) const;

    /// Paints `range` into `target` (in the painter's coordinates): the same drawing as the
    /// screen, for SVG, PDF and PNG. For a 2x PNG, scale the painter by 2 and give the 1x target.
    void render(QPainter& painter, const QRectF& target, TimeRange range) const;
    void render(QPainter& painter, const QRectF& target, TimeRange range, const TimelineRenderOptions& options) const;

    /// The size that shows every lane at `widthPx` (ruler, rows, and the legend if asked for).
    [[nodiscard]] QSizeF renderSize(double widthPx, const TimelineRenderOptions& options = {}) const;

    QSize sizeHint() const override;

public slots:
    /// Selects connection `id`, expands its group and scrolls its lane into view.
    void scrollToConnection(uint32_t id);
    /// Shows [range.startNs, range.endNs) across the plot.
    void zoomToRange(tcpscope::ui::TimeRange range);
    /// Shows the whole capture (and the extra lanes' events).
    void zoomToFit();
    /// Selects finding `id` and scrolls to its lane; zooms to its stalls unless some are in view.
    void showFinding(uint32_t id);
    /// Marks the time of the packet at `packetIndex` with a cursor across the lanes, selects its
    /// connection and brings both into view (keeping the zoom; the pan waits for the event loop).
    void selectPacket(size_t packetIndex);
    void zoomIn();
    void zoomOut();

signals:
    /// A click on a connection's lane (also sent before packetClicked for a packet of it).
    void connectionClicked(uint32_t id);
    /// A click on a stall span or its label; packetClicked follows with the stall's first packet.
    void findingClicked(uint32_t id);
    /// A click on a packet mark (the first packet of a folded mark) or a stall: a position in the
    /// packet index.
    void packetClicked(size_t packetIndex);
    /// The time shown changed (zoom, pan, resize).
    void visibleRangeChanged(qint64 startNs, qint64 endNs);
    /// The lanes of a large capture, built on a pool thread, are shown.
    void modelReady();
    /// The context menu is about to show: receivers may add actions (direct connections only).
    void contextMenuAboutToShow(QMenu* menu, const tcpscope::ui::TimelineContext& context);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void setModel(std::shared_ptr<TimelineModel> model);
    // The groups of a new model of the same results folded as those of `previous`.
    // The grouping a model of `connections` connections is shown in: the user's, else populations.
    [[nodiscard]] LaneGrouping groupingFor(size_t connections) const;
    void keepFoldedGroups(const TimelineModel& previous);
    void toggleGroup(size_t group);
    // A gutter wide enough for the lane labels and the first groups' headers.
    void fitGutter();
    // Brings row `row` into view (a third from the top) if it is not.
    void scrollToRow(std::optional<size_t> row);
    [[nodiscard]] std::optional<size_t> groupForKeyboard() const;
    [[nodiscard]] QString populationRowTooltip(PopulationRowKey row) const;
    [[nodiscard]] std::vector<TimelineLane> lanesToShow() const;
    void applyFontMetrics();
    void updateScrollBars();
    void setAxis(const TimeAxis& axis, bool byUser);
    [[nodiscard]] TimelineViewport viewportFor(const QSizeF& size, const TimeAxis& axis, double scrollYPx,
                                               bool legend) const;
    [[nodiscard]] double plotWidth() const;
    [[nodiscard]] double lanesHeight() const;
    [[nodiscard]] double maxNsPerPx() const;
    [[nodiscard]] QString tooltipFor(const TimelineHit& hit) const;
    void handleClick(const QPointF& position);
    void panToCursor();
    [[nodiscard]] std::optional<size_t> packetOfFrame(uint32_t frame) const;
    [[nodiscard]] std::optional<size_t> firstPacketOfStall(uint32_t findingId, uint32_t instance) const;
    void zoomAbout(double x, double factor);
    // Shift+drag selection (timeline_view_selection.cpp).
    void beginSelection(const QPointF& position);
    void extendSelection(const QPointF& position);
    void endSelection();
    void paintSelection(QPainter& painter) const;

    ResultsPtr results_;
    std::shared_ptr<TimelineModel> model_;
    std::vector<TimelineLane> extraLanes_;
    bool failedConnectLanes_ = true;
    LaneGrouping grouping_ = LaneGrouping::Connection;
    bool groupingChosen_ = false;  // by the user; else it follows the number of connections
    size_t currentGroup_ = SIZE_MAX;
    TimeAxis axis_;
    bool userMovedAxis_ = false;
    uint32_t selectedConnection_ = kNoConnection;
    uint32_t selectedFinding_ = UINT32_MAX;
    int64_t cursorTsNs_ = kNoTime;
    bool panPending_ = false;
    double gutterPx_ = 230;
    double lineHeightPx_ = 15;
    TimelineFrame frame_;
    TimelineColors colors_;
    NotePins notePins_;

    QFutureWatcher<std::shared_ptr<const TimelineModel>> buildWatcher_;
    std::optional<TimelineBuildKey> acquiredBuild_;  // the shared build this view watches, to release
    uint64_t buildGeneration_ = 0;    // counts setResults() calls
    uint64_t watchedGeneration_ = 0;  // the call whose build is being watched
    bool building_ = false;
    bool lanesPending_ = false;       // the watched build's lanes replace those of earlier results
    size_t backgroundBuildPackets_ = kBackgroundBuildPackets;

    QPointF pressPosition_;
    QPointF lastDragPosition_;
    bool pressed_ = false;
    bool dragging_ = false;
    bool selecting_ = false;
    int64_t selectionAnchorNs_ = 0;
    std::optional<TimeRange> selectedSpan_;
    TimelineHit hover_;
    bool updatingScrollBars_ = false;
};

}  // namespace tcpscope::ui
