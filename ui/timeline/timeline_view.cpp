#include "timeline/timeline_view.hpp"

#include <QAction>
#include <QContextMenuEvent>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "timeline/incident_lanes.hpp"
#include "timeline/syscall_lanes.hpp"
#include "timeline/timeline_notes.hpp"
#include "timeline/timeline_population.hpp"

namespace tcpscope::ui {

namespace {
constexpr int kScrollSteps = 10'000;  // horizontal scroll bar resolution over the whole capture
constexpr double kDragThresholdPx = 4;
constexpr double kWheelZoomBase = 1.0015;  // per eighth of a degree: one notch (120) zooms 1.2x
constexpr double kKeyZoom = 1.5;
constexpr double kFitMargin = 0.015;  // of the range, each side

// A font sized in pixels, so that the screen, a 1200 dpi PDF and an SVG lay out the same.
QFont pixelFont(const QFont& font) {
    QFont sized = font;
    sized.setPixelSize(std::max(QFontInfo(font).pixelSize(), 6));
    return sized;
}

QString fromUtf8(const std::string& text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QAbstractScrollArea(parent), model_(std::make_shared<TimelineModel>()) {
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    colors_ = TimelineColors::fromPalette(palette());
    applyFontMetrics();
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (updatingScrollBars_) {
            return;
        }
        const TimeRange bounds = model_->bounds();
        const TimeRange shown = visibleRange();
        const auto free = static_cast<double>(bounds.lengthNs() - shown.lengthNs());
        const double startOffset = free * value / kScrollSteps;
        const auto currentOffset = static_cast<double>(shown.startNs - bounds.startNs);
        setAxis(axis_.panned((startOffset - currentOffset) / axis_.nsPerPx()), true);
    });
    // A build gives the lanes first (when there are many), then the lanes with their packets.
    connect(
        &buildWatcher_, &QFutureWatcher<std::shared_ptr<const TimelineModel>>::resultReadyAt, this, [this](int index) {
            if (!building_ || watchedGeneration_ != buildGeneration_) {
                return;  // results replaced since this build started
            }
            // The build is shared with other views of the same results: this view's own folds and rows.
            setModel(std::make_shared<TimelineModel>(buildWatcher_.resultAt(index)->sharedCopy()));
            if (std::exchange(lanesPending_, false)) {  // what was selected while the lanes were built: find it on them
                if (selectedFinding_ != UINT32_MAX) {
                    showFinding(selectedFinding_);
                } else if (selectedConnection_ != kNoConnection) {
                    scrollToConnection(selectedConnection_);
                }
            }
        });
    connect(&buildWatcher_, &QFutureWatcher<std::shared_ptr<const TimelineModel>>::finished, this, [this]() {
        if (!building_ || watchedGeneration_ != buildGeneration_) {
            return;
        }
        building_ = false;
        emit modelReady();
    });
}

TimelineView::~TimelineView() {
    if (acquiredBuild_) {
        TimelineBuilds::release(*acquiredBuild_);
    }
}

QSize TimelineView::sizeHint() const {
    return {900, 420};
}

void TimelineView::setResults(ResultsPtr results) {
    if (const std::optional<TimelineBuildKey> acquired = std::exchange(acquiredBuild_, std::nullopt)) {
        TimelineBuilds::release(*acquired);
        buildWatcher_.setFuture({});  // nor does the watcher keep its models (a big capture's: gigabytes)
    }
    results_ = std::move(results);
    ++buildGeneration_;
    if (!results_) {
        building_ = false;
        userMovedAxis_ = false;
        selectedConnection_ = kNoConnection;
        selectedFinding_ = UINT32_MAX;
        cursorTsNs_ = kNoTime;
        setModel(std::make_shared<TimelineModel>());
        return;
    }
    const CaptureAnalysis* analysis = results_->analysis();
    const size_t packets = analysis != nullptr && analysis->engine ? analysis->engine->packets().size() : 0;
    const bool manyPackets = packets >= backgroundBuildPackets_;
    const bool manyLanes = results_->connections().size() >= backgroundBuildPackets_ / kPacketsPerLane;
    if (!manyPackets && !manyLanes) {
        building_ = false;
        // What another view of these results built (the Timeline tab's, for an export): shared, not made again.
        const std::shared_ptr<const TimelineModel> built = TimelineBuilds::complete(*results_);
        setModel(std::make_shared<TimelineModel>(built ? built->sharedCopy() : TimelineModel::fromResults(*results_)));
        return;
    }
    if (!manyLanes) {
        setModel(std::make_shared<TimelineModel>(TimelineModelBuilder(*results_).finish()));  // few lanes: at once
    }
    // On a pool thread: the lanes if there are many (the view shows what it showed until then),
    // then the same lanes with their packet summaries, grouped as setModel() would group them. One
    // build for every view of these results (TimelineBuilds). A newer setResults() replaces the
    // watched future, so a stale build is dropped.
    building_ = true;
    lanesPending_ = manyLanes;
    watchedGeneration_ = buildGeneration_;
    acquiredBuild_ =
        TimelineBuildKey{results_.get(), manyLanes, manyPackets, groupingFor(results_->connections().size())};
    buildWatcher_.setFuture(TimelineBuilds::acquire(results_, *acquiredBuild_));
}

LaneGrouping TimelineView::groupingFor(size_t connections) const {
    if (groupingChosen_) {
        return grouping_;
    }
    // Populations first, the large ones folded (docs/gui.md, "The population view").
    return connections > 1 ? LaneGrouping::ClientToServer : LaneGrouping::Connection;
}

void TimelineView::setModel(std::shared_ptr<TimelineModel> model) {
    const std::shared_ptr<TimelineModel> previous = std::exchange(model_, std::move(model));
    model_->setRowHeights(rowHeightsFor(lineHeightPx_));
    grouping_ = groupingFor(model_->connections().size());
    if (model_->grouping() != grouping_) {
        model_->setGrouping(grouping_);
    }
    if (grouping_ != LaneGrouping::Connection) {  // grouped here or by the build
        keepFoldedGroups(*previous);
    }
    if (!extraLanes_.empty() || !model_->extraLanes().empty() ||
        (results_ && (results_->alignment() != nullptr || !results_->incidents().empty()))) {
        model_->setExtraLanes(lanesToShow());
    }
    fitGutter();
    if (!userMovedAxis_) {
        zoomToFit();
    } else {
        setAxis(axis_, false);
    }
    updateScrollBars();
    viewport()->update();
}

void TimelineView::setExtraLanes(std::vector<TimelineLane> lanes) {
    extraLanes_ = std::move(lanes);
    model_->setExtraLanes(lanesToShow());
    fitGutter();
    updateScrollBars();
    viewport()->update();
}

void TimelineView::setFailedConnectLanesShown(bool shown) {
    failedConnectLanes_ = shown;
    setExtraLanes(std::move(extraLanes_));
}

std::vector<TimelineLane> TimelineView::lanesToShow() const {
    std::vector<TimelineLane> lanes;
    if (results_ && results_->alignment() != nullptr) {
        lanes = timelineSyscallLanes(*results_->alignment());
        if (failedConnectLanes_) {
            std::vector<TimelineLane> failed = timelineFailedConnectLanes(*results_->alignment());
            std::move(failed.begin(), failed.end(), std::back_inserter(lanes));
        }
    }
    // After the syscall lanes, which come first (contextAt() finds a call by its lane's position).
    if (results_) {
        std::vector<TimelineLane> incidents = timelineIncidentLanes(results_->incidents());
        std::move(incidents.begin(), incidents.end(), std::back_inserter(lanes));
    }
    lanes.insert(lanes.end(), extraLanes_.begin(), extraLanes_.end());
    return lanes;
}

void TimelineView::keepFoldedGroups(const TimelineModel& previous) {
    // The same results' groups again (the lanes, then the lanes with packets): as they were folded.
    if (!model_->foldGroupsAs(previous) && grouping_ == LaneGrouping::ClientToServer) {
        model_->foldLargeGroups();
    }
}

void TimelineView::setGrouping(LaneGrouping grouping) {
    groupingChosen_ = true;
    grouping_ = grouping;
    if (model_->grouping() != grouping) {  // grouping a million connections again costs seconds
        model_->setGrouping(grouping);
    }
    if (grouping == LaneGrouping::ClientToServer) {
        model_->foldLargeGroups();  // populations first; a click opens one
    }
    fitGutter();
    setAxis(axis_, false);
    updateScrollBars();
    if (selectedConnection_ != kNoConnection) {
        scrollToConnection(selectedConnection_);
    }
    viewport()->update();
}

void TimelineView::setAllGroupsCollapsed(bool collapsed) {
    model_->setAllGroupsCollapsed(collapsed);
    updateScrollBars();
    viewport()->update();
}

void TimelineView::applyFontMetrics() {
    const QFontMetricsF metrics(pixelFont(font()));
    lineHeightPx_ = std::ceil(metrics.height());
    model_->setRowHeights(rowHeightsFor(lineHeightPx_));
    fitGutter();
}

void TimelineView::fitGutter() {
    const QFont font = pixelFont(this->font());
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font);
    const QFontMetricsF boldMetrics(bold);
    double widest = metrics.horizontalAdvance(QStringLiteral("#00000  [ffff:ffff::ffff]:65535"));
    // Group headers name a client host and a listener in bold: as much room as the first ones need.
    constexpr size_t kGroupsMeasured = 200;
    const std::vector<LaneGroup>& groups = model_->groups();
    for (size_t group = 0; group < std::min(groups.size(), kGroupsMeasured); ++group) {
        if (groups[group].members == 1 && model_->grouping() == LaneGrouping::ClientToServer) {
            continue;  // drawn as its connection's lane, without a header
        }
        widest =
            std::max({widest, boldMetrics.horizontalAdvance(QStringLiteral("▸ ") + fromUtf8(model_->groupLabel(group))),
                      metrics.horizontalAdvance(fromUtf8(model_->groupDetail(group)))});
    }
    // Lanes above the connections (failed connect() calls per server) name their server in full.
    for (const ExtraLane& extra : model_->extraLanes()) {
        if (extra.lane.attachedConnection == kNoConnection) {
            widest = std::max(widest, metrics.horizontalAdvance(fromUtf8(extra.lane.label)));
        }
    }
    gutterPx_ = std::clamp(std::ceil(widest + 16), 160.0, 320.0);
    axis_ = axis_.withLeft(gutterPx_);
}

double TimelineView::plotWidth() const {
    return std::max(viewport()->width() - gutterPx_, 1.0);
}

double TimelineView::lanesHeight() const {
    return std::max(viewport()->height() - rulerHeightPx(lineHeightPx_) - legendHeightPx(lineHeightPx_), 1.0);
}

double TimelineView::maxNsPerPx() const {
    return std::max(static_cast<double>(model_->bounds().lengthNs()) * 4 / plotWidth(), 1e3);
}

TimeRange TimelineView::visibleRange() const {
    return axis_.visible(plotWidth());
}

void TimelineView::setAxis(const TimeAxis& axis, bool byUser) {
    const TimeRange before = visibleRange();
    TimeAxis next = axis.withLeft(gutterPx_);
    if (next.nsPerPx() > maxNsPerPx()) {
        next = next.zoomedAbout(gutterPx_ + plotWidth() / 2, next.nsPerPx() / maxNsPerPx());
    }
    axis_ = next.clampedTo(model_->bounds(), plotWidth());
    userMovedAxis_ = userMovedAxis_ || byUser;
    updateScrollBars();
    viewport()->update();
    const TimeRange after = visibleRange();
    if (after != before) {
        emit visibleRangeChanged(after.startNs, after.endNs);
    }
}

void TimelineView::updateScrollBars() {
    updatingScrollBars_ = true;
    const TimeRange bounds = model_->bounds();
    const TimeRange shown = visibleRange();
    const int64_t free = bounds.lengthNs() - shown.lengthNs();
    if (free > 0) {
        const double fraction = static_cast<double>(shown.startNs - bounds.startNs) / static_cast<double>(free);
        horizontalScrollBar()->setRange(0, kScrollSteps);
        horizontalScrollBar()->setPageStep(static_cast<int>(
            std::clamp(static_cast<double>(shown.lengthNs()) / static_cast<double>(free) * kScrollSteps, 1.0, 1e6)));
        horizontalScrollBar()->setSingleStep(std::max(kScrollSteps / 100, 1));
        horizontalScrollBar()->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * kScrollSteps)));
    } else {
        horizontalScrollBar()->setRange(0, 0);
    }
    const double overflow = model_->totalHeightPx() - lanesHeight();
    verticalScrollBar()->setRange(0, static_cast<int>(std::ceil(std::max(overflow, 0.0))));
    verticalScrollBar()->setPageStep(static_cast<int>(lanesHeight()));
    verticalScrollBar()->setSingleStep(static_cast<int>(model_->rowHeights().lanePx));
    updatingScrollBars_ = false;
}

TimelineViewport TimelineView::viewportFor(const QSizeF& size, const TimeAxis& axis, double scrollYPx,
                                           bool legend) const {
    TimelineViewport viewport;
    viewport.widthPx = size.width();
    viewport.heightPx = size.height();
    viewport.gutterPx = std::min(gutterPx_, size.width() * 0.4);
    viewport.axis = axis;
    viewport.scrollYPx = scrollYPx;
    viewport.legend = legend;
    viewport.partial = results_ && !results_->isComplete();
    viewport.selectedConnection = selectedConnection_;
    viewport.selectedFinding = selectedFinding_;
    viewport.cursorTsNs = cursorTsNs_;
    viewport.metrics.lineHeightPx = lineHeightPx_;
    const auto metrics = std::make_shared<QFontMetricsF>(pixelFont(font()));
    viewport.metrics.textWidth = [metrics](const std::string& text) {
        return metrics->horizontalAdvance(fromUtf8(text));
    };
    return viewport;
}

TimelineFrame TimelineView::prepareFrame(const QSizeF& size, TimeRange range,
                                         const TimelineRenderOptions& options) const {
    const double gutter = std::min(gutterPx_, size.width() * 0.4);
    const TimeAxis axis = TimeAxis::fit(range, gutter, std::max(size.width() - gutter, 1.0));
    const double scroll = options.scrollYPx >= 0 ? options.scrollYPx : verticalScrollBar()->value();
    TimelineViewport viewport = viewportFor(size, axis, scroll, options.legend);
    viewport.drawFromPx = options.drawFromPx;
    viewport.drawToPx = options.drawToPx;
    return prepareTimeline(*model_, viewport);
}

TimelineRenderOptions clippedTo(const QPainter& painter, const QRectF& target, TimelineRenderOptions options,
                                double marginPx) {
    if (painter.hasClipping()) {
        const QRectF clip = painter.clipBoundingRect().translated(-target.topLeft());
        options.drawFromPx = clip.top() - marginPx;
        options.drawToPx = clip.bottom() + marginPx;
    }
    return options;
}

void TimelineView::render(QPainter& painter, const QRectF& target, TimeRange range) const {
    render(painter, target, range, {});
}

void TimelineView::render(QPainter& painter, const QRectF& target, TimeRange range,
                          const TimelineRenderOptions& options) const {
    // A picture far taller than what is painted of it (a scrolled canvas): only the rows in the clip.
    const TimelineFrame frame = prepareFrame(target.size(), range, clippedTo(painter, target, options));
    painter.save();
    painter.translate(target.topLeft());
    painter.setClipRect(QRectF(QPointF(0, 0), target.size()), Qt::IntersectClip);
    paintTimelineFrame(painter, frame, colors_, pixelFont(font()));
    paintTimelineNotes(painter, frame, notePins_ ? *notePins_ : std::vector<NotePin>(), palette(), pixelFont(font()));
    painter.restore();
}

QSizeF TimelineView::renderSize(double widthPx, const TimelineRenderOptions& options) const {
    const double legend = options.legend ? legendHeightPx(lineHeightPx_) : 0;
    return {widthPx, rulerHeightPx(lineHeightPx_) + model_->totalHeightPx() + legend};
}

void TimelineView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(viewport());
    const QSizeF size = viewport()->size();
    frame_ = prepareTimeline(*model_, viewportFor(size, axis_, verticalScrollBar()->value(), true));
    paintTimelineFrame(painter, frame_, colors_, pixelFont(font()));
    paintTimelineNotes(painter, frame_, notePins_ ? *notePins_ : std::vector<NotePin>(), palette(), pixelFont(font()));
    paintSelection(painter);
}

void TimelineView::setNotePins(NotePins pins) {
    notePins_ = std::move(pins);
    viewport()->update();
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    if (!userMovedAxis_) {
        zoomToFit();
    } else {
        setAxis(axis_, false);
    }
    updateScrollBars();
}

void TimelineView::scrollContentsBy(int /*dx*/, int /*dy*/) {
    viewport()->update();
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        colors_ = TimelineColors::fromPalette(palette());
        viewport()->update();
    } else if (event->type() == QEvent::FontChange) {
        applyFontMetrics();
        updateScrollBars();
        viewport()->update();
    }
    QAbstractScrollArea::changeEvent(event);
}

void TimelineView::zoomAbout(double x, double factor) {
    setAxis(axis_.zoomedAbout(x, factor, maxNsPerPx()), true);
}

void TimelineView::zoomIn() {
    zoomAbout(gutterPx_ + plotWidth() / 2, kKeyZoom);
}

void TimelineView::zoomOut() {
    zoomAbout(gutterPx_ + plotWidth() / 2, 1 / kKeyZoom);
}

void TimelineView::zoomToRange(TimeRange range) {
    if (range.lengthNs() < 1) {
        range = {range.startNs - 500, range.startNs + 500};
    }
    setAxis(TimeAxis::fit(range, gutterPx_, plotWidth()), true);
}

void TimelineView::zoomToFit() {
    TimeRange bounds = model_->bounds();
    const int64_t margin =
        std::max<int64_t>(static_cast<int64_t>(static_cast<double>(bounds.lengthNs()) * kFitMargin), 1000);
    bounds = {bounds.startNs - margin, bounds.endNs + margin};
    axis_ = TimeAxis::fit(bounds, gutterPx_, plotWidth());
    setAxis(axis_, false);
}

void TimelineView::scrollToConnection(uint32_t id) {
    if (model_->connection(id) == nullptr) {
        return;
    }
    selectedConnection_ = id;
    if (const auto group = model_->groupOfConnection(id); group && model_->groupCollapsed(*group)) {
        model_->setGroupCollapsed(*group, false);
        updateScrollBars();
    }
    scrollToRow(model_->rowOfConnection(id));
    viewport()->update();
}

void TimelineView::scrollToRow(std::optional<size_t> row) {
    if (!row || *row >= model_->rows().size()) {
        return;
    }
    const LaneRow& lane = model_->rows()[*row];
    const double top = verticalScrollBar()->value();
    if (lane.topPx < top || lane.topPx + lane.heightPx > top + lanesHeight()) {
        verticalScrollBar()->setValue(static_cast<int>(lane.topPx - lanesHeight() / 3));
    }
}

void TimelineView::showFinding(uint32_t id) {
    selectedFinding_ = id;
    const std::vector<uint32_t> connections = model_->findingConnections(id);
    const auto group = connections.empty() ? std::nullopt : model_->groupOfConnection(connections.front());
    const auto sameGroup = [&](uint32_t connection) { return model_->groupOfConnection(connection) == group; };
    if (connections.size() > 1 && group && model_->groupCollapsed(*group) &&
        std::all_of(connections.begin(), connections.end(), sameGroup)) {
        // A finding of a population (a listen backlog, churn): its spans are on the folded group's
        // header, which says more than one of its lanes.
        scrollToRow(model_->rowOfGroup(*group));
    } else if (!connections.empty()) {
        scrollToConnection(connections.front());
    }
    const TimeRange shown = visibleRange();
    if (const auto range = model_->findingRange(id);
        range && (range->endNs < shown.startNs || range->startNs > shown.endNs)) {
        const int64_t margin = std::max<int64_t>(range->lengthNs() / 10, 1'000'000);
        zoomToRange({range->startNs - margin, range->endNs + margin});
    }
    viewport()->update();
}

void TimelineView::selectPacket(size_t packetIndex) {
    const CaptureAnalysis* analysis = results_ ? results_->analysis() : nullptr;
    if (analysis == nullptr || packetIndex >= analysis->engine->packets().size()) {
        cursorTsNs_ = kNoTime;
        viewport()->update();
        return;
    }
    cursorTsNs_ = analysis->engine->packets().tsNs(packetIndex);
    scrollToConnection(analysis->engine->packets().connection(packetIndex));
    viewport()->update();
    // Panning waits for the event loop: linked selections often pass through several packets
    // in one go (a finding's first packet, then the clicked stall's), and only the last counts.
    if (!panPending_) {
        panPending_ = true;
        QMetaObject::invokeMethod(this, &TimelineView::panToCursor, Qt::QueuedConnection);
    }
}

void TimelineView::panToCursor() {
    panPending_ = false;
    const TimeRange shown = visibleRange();
    if (cursorTsNs_ != kNoTime && (cursorTsNs_ < shown.startNs || cursorTsNs_ > shown.endNs)) {
        setAxis(axis_.panned(axis_.toX(cursorTsNs_) - (gutterPx_ + plotWidth() / 2)), true);
    }
}

std::optional<size_t> TimelineView::packetOfFrame(uint32_t frame) const {
    const CaptureAnalysis* analysis = results_ ? results_->analysis() : nullptr;
    if (analysis == nullptr) {
        return std::nullopt;
    }
    const PacketIndex& packets = analysis->engine->packets();
    const size_t position = packets.positionOfFrame(frame);
    if (position < packets.size()) {
        return position;
    }
    return std::nullopt;
}

std::optional<size_t> TimelineView::firstPacketOfStall(uint32_t findingId, uint32_t instance) const {
    for (const Finding& finding : results_ ? results_->findings() : FindingList{}) {
        if (finding.id != findingId) {
            continue;
        }
        uint32_t frame = finding.frames.empty() ? 0 : finding.frames.front();
        if (instance < finding.spans.size() && !finding.spans[instance].frames.empty()) {
            frame = finding.spans[instance].frames.front();
        }
        return frame != 0 ? packetOfFrame(frame) : std::nullopt;
    }
    return std::nullopt;
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPointF position = event->position();
    const QPoint delta = event->angleDelta();
    const bool overGutter = position.x() < gutterPx_;
    if (overGutter || (event->modifiers() & Qt::ShiftModifier) != 0) {
        // Scroll lanes. (Qt turns Shift+wheel into a horizontal delta on some platforms.)
        const int steps = delta.y() != 0 ? delta.y() : delta.x();
        verticalScrollBar()->setValue(verticalScrollBar()->value() - steps * verticalScrollBar()->singleStep() / 120);
    } else if (delta.x() != 0 && std::abs(delta.x()) > std::abs(delta.y())) {
        setAxis(axis_.panned(-delta.x() * plotWidth() / 1200), true);  // a touchpad's sideways swipe pans
    } else if (delta.y() != 0) {
        zoomAbout(position.x(), std::pow(kWheelZoomBase, delta.y()));
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier) != 0 &&
        event->position().x() >= gutterPx_) {
        beginSelection(event->position());
    } else if (event->button() == Qt::LeftButton) {
        pressed_ = true;
        dragging_ = false;
        pressPosition_ = event->position();
        lastDragPosition_ = event->position();
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF position = event->position();
    if (selecting_ && (event->buttons() & Qt::LeftButton) != 0) {
        extendSelection(position);
        return;
    }
    if (pressed_ && (event->buttons() & Qt::LeftButton) != 0) {
        if (!dragging_ && (position - pressPosition_).manhattanLength() > kDragThresholdPx) {
            dragging_ = true;
            viewport()->setCursor(Qt::ClosedHandCursor);
            QToolTip::hideText();
        }
        if (dragging_) {
            const QPointF delta = position - lastDragPosition_;
            lastDragPosition_ = position;
            verticalScrollBar()->setValue(verticalScrollBar()->value() - static_cast<int>(std::lround(delta.y())));
            setAxis(axis_.panned(-delta.x()), true);
        }
        return;
    }
    const TimelineHit hit = frame_.hitTest(position.x(), position.y());
    const bool changed = hit.kind != hover_.kind || hit.row != hover_.row || hit.item != hover_.item ||
                         hit.finding != hover_.finding || hit.inGutter != hover_.inGutter;
    hover_ = hit;
    if (changed) {
        const QString text = tooltipFor(hit);
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(event->globalPosition().toPoint(), text, viewport());
        }
    }
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && selecting_) {
        extendSelection(event->position());
        endSelection();
    } else if (event->button() == Qt::LeftButton && pressed_) {
        pressed_ = false;
        if (dragging_) {
            dragging_ = false;
            viewport()->unsetCursor();
        } else {
            setSelectedSpan(std::nullopt);
            handleClick(event->position());
        }
    }
    event->accept();
}

void TimelineView::handleClick(const QPointF& position) {
    const TimelineHit hit = frame_.hitTest(position.x(), position.y());
    if (hit.kind == HitKind::None || hit.kind == HitKind::Ruler) {
        return;
    }
    if (hit.rowKind == RowKind::GroupHeader && hit.kind != HitKind::Stall) {
        toggleGroup(hit.rowIndex);
        return;
    }
    switch (hit.kind) {
        case HitKind::Stall: {
            selectedFinding_ = hit.finding;
            viewport()->update();
            emit findingClicked(hit.finding);
            // Then the stall's own first packet (the small segment Nagle held back after, ...),
            // so that linked views land on this stall rather than the finding's first.
            if (const auto packet = firstPacketOfStall(hit.finding, hit.instance)) {
                emit packetClicked(*packet);
            }
            return;
        }
        case HitKind::Events: return;  // a call is reached by its tooltip and context menu (contextAt), not a click
        case HitKind::Packets:
        case HitKind::Lane:
            if (hit.rowKind == RowKind::Connection) {
                selectedConnection_ = hit.connection;
                viewport()->update();
                emit connectionClicked(hit.connection);
            }
            if (hit.kind == HitKind::Packets) {
                emit packetClicked(hit.item);
            }
            return;
        default: return;
    }
}

void TimelineView::toggleGroup(size_t group) {
    if (group >= model_->groups().size()) {
        return;
    }
    currentGroup_ = group;
    model_->setGroupCollapsed(group, !model_->groupCollapsed(group));
    updateScrollBars();
    viewport()->update();
}

std::optional<size_t> TimelineView::groupForKeyboard() const {
    // The group last opened or closed, else that of the selected connection, else the first in view.
    if (currentGroup_ < model_->groups().size()) {
        return currentGroup_;
    }
    if (const auto group = model_->groupOfConnection(selectedConnection_)) {
        return group;
    }
    const std::vector<LaneRow>& rows = model_->rows();
    for (size_t row = model_->rowAt(verticalScrollBar()->value()).value_or(0); row < rows.size(); ++row) {
        if (rows[row].kind == RowKind::GroupHeader) {
            return rows[row].index;
        }
    }
    return std::nullopt;
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const TimelineHit hit = frame_.hitTest(event->position().x(), event->position().y());
    if (hit.kind == HitKind::Stall && hit.endNs > hit.startNs) {
        const int64_t margin = std::max<int64_t>((hit.endNs - hit.startNs) / 4, 1000);
        zoomToRange({hit.startNs - margin, hit.endNs + margin});
    } else if (hit.kind == HitKind::Packets && hit.count > 1) {
        const int64_t margin = std::max<int64_t>((hit.endNs - hit.startNs) / 10, 1000);
        zoomToRange({hit.startNs - margin, hit.endNs + margin});
    } else if (hit.kind != HitKind::None && !hit.inGutter && hit.kind != HitKind::Ruler) {
        zoomAbout(event->position().x(), 4);
    }
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const double center = gutterPx_ + plotWidth() / 2;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: zoomAbout(center, kKeyZoom); break;
        case Qt::Key_Minus:
        case Qt::Key_Underscore: zoomAbout(center, 1 / kKeyZoom); break;
        case Qt::Key_Left: setAxis(axis_.panned(-plotWidth() / 8), true); break;
        case Qt::Key_Right: setAxis(axis_.panned(plotWidth() / 8), true); break;
        case Qt::Key_Up: verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub); break;
        case Qt::Key_Down: verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd); break;
        case Qt::Key_PageUp: verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub); break;
        case Qt::Key_PageDown: verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepAdd); break;
        case Qt::Key_Home:
        case Qt::Key_0: zoomToFit(); break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (const auto group = groupForKeyboard()) {
                toggleGroup(*group);
            }
            break;
        case Qt::Key_Asterisk: setAllGroupsCollapsed(false); break;
        case Qt::Key_Slash: setAllGroupsCollapsed(true); break;
        case Qt::Key_Escape:
            if (!selectedSpan_) {
                QAbstractScrollArea::keyPressEvent(event);
                return;
            }
            setSelectedSpan(std::nullopt);
            break;
        default: QAbstractScrollArea::keyPressEvent(event); return;
    }
    event->accept();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    // Actions about what is under the pointer (notes on a system call or the selected span) first.
    emit contextMenuAboutToShow(&menu, contextAt(QPointF(event->pos())));
    if (!menu.isEmpty()) {
        menu.addSeparator();
    }
    const auto addGrouping = [&](const QString& text, LaneGrouping grouping) {
        QAction* action = menu.addAction(text, this, [this, grouping]() { setGrouping(grouping); });
        action->setCheckable(true);
        action->setChecked(grouping_ == grouping);
    };
    addGrouping(tr("One lane per connection"), LaneGrouping::Connection);
    addGrouping(tr("Group by client address"), LaneGrouping::ClientAddress);
    addGrouping(tr("Group by server endpoint"), LaneGrouping::ServerEndpoint);
    addGrouping(tr("Populations: client host → server endpoint"), LaneGrouping::ClientToServer);
    if (!model_->groups().empty()) {
        menu.addAction(tr("Expand all groups\t*"), this, [this]() { setAllGroupsCollapsed(false); });
        menu.addAction(tr("Collapse all groups\t/"), this, [this]() { setAllGroupsCollapsed(true); });
    }
    menu.addSeparator();
    menu.addAction(tr("Zoom in\t+"), this, &TimelineView::zoomIn);
    menu.addAction(tr("Zoom out\t-"), this, &TimelineView::zoomOut);
    menu.addAction(tr("Show everything\tHome"), this, &TimelineView::zoomToFit);
    menu.exec(event->globalPos());
}

bool TimelineView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        // Tooltips follow the pointer from mouseMoveEvent; the default one would hide them.
        event->accept();
        return true;
    }
    if (event->type() == QEvent::Leave) {
        hover_ = {};
    }
    return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace tcpscope::ui
