#include "sequence/sequence_view.hpp"

#include <QContextMenuEvent>
#include <QEvent>
#include <QMenu>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

#include "sequence/sequence_syscalls.hpp"
#include "tcp/proxy_pair.hpp"

namespace tcpscope::ui {

namespace {
constexpr double kZoomStep = 1.25;
constexpr double kMaxScrollUnits = 1e9;  // below INT_MAX, with room for the page step
}  // namespace

SequenceView::SequenceView(QWidget* parent) : QAbstractScrollArea(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
    viewport()->setMouseTracking(false);
    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("sequenceCaption"));
    caption_->setTextFormat(Qt::PlainText);
    caption_->setWordWrap(true);
    caption_->setContentsMargins(4, 2, 4, 2);
    caption_->setAutoFillBackground(true);
    caption_->hide();
}

void SequenceView::setCaption(const QString& caption) {
    caption_->setText(caption);
    caption_->setVisible(!caption.isEmpty());
    placeCaption();
}

QString SequenceView::caption() const {
    return caption_->text();
}

void SequenceView::placeCaption() {
    const int frame = frameWidth();
    // Beside the vertical scroll bar, which runs down the margin too.
    const int width = std::max(0, this->width() - 2 * frame - verticalScrollBar()->sizeHint().width());
    const int height = caption_->isHidden() ? 0 : caption_->heightForWidth(width);
    caption_->setGeometry(frame, frame, width, height);
    setViewportMargins(0, height, 0, 0);
}

void SequenceView::showConnection(ResultsPtr results, uint32_t connection) {
    setCaption({});
    if (autoProxy_ && results && results->packets() != nullptr && connection < results->connections().size()) {
        // With capture points, a proxy's two addresses (where it listens, where it connects from)
        // are one host when the same point is on both.
        const PointSightings* sightings = results->sightings();
        const SameHost sameHost = sightings != nullptr ? sightings->sameHost() : SameHost();
        const auto pair = findProxyPartner(results->connections(), *results->packets(), connection, sameHost);
        if (pair) {
            showProxy(std::move(results), pair->clientSide, pair->serverSide);
            return;
        }
    }
    setSequenceLayout(SequenceLayout::ofConnection(std::move(results), connection, scale_));
}

void SequenceView::showProxy(ResultsPtr results, uint32_t clientSideConnection, uint32_t serverSideConnection) {
    setCaption({});
    setSequenceLayout(SequenceLayout::ofProxy(std::move(results), clientSideConnection, serverSideConnection, scale_));
}

void SequenceView::refreshResults(ResultsPtr results) {
    const SequenceDiagram* diagram = layout_.diagram();
    if (diagram == nullptr) {
        return;
    }
    if (!isVisible()) {
        pendingRefresh_ = std::move(results);  // a hidden sequence diagram is not drawn again on every snapshot
        return;
    }
    pendingRefresh_.reset();
    const std::vector<uint32_t> shown = diagram->connections();
    QScrollBar* bar = verticalScrollBar();
    const bool atEnd = bar->maximum() > 0 && bar->value() == bar->maximum();
    const double top = scrollY();
    // The snapshot only adds packets after those shown: earlier arrows keep their numbers and places.
    layout_ = shown.size() == 2 ? SequenceLayout::ofProxy(std::move(results), shown[0], shown[1], scale_)
                                : SequenceLayout::ofConnection(std::move(results), shown[0], scale_);
    if (layout_.diagram() == nullptr || selectedArrow_ >= layout_.diagram()->arrows().size()) {
        selectedArrow_ = kNoArrow;
    }
    scale_.width = contentWidth();
    layout_.setSyscalls(syscallsFor(layout_));
    layout_.setScale(scale_);
    updateScrollBar();
    // Where the user was, or still at the end (following the newest packets) if they were there.
    setScrollY(atEnd ? bar->maximum() * unitsPerStep_ : top);
    viewport()->update();
}

void SequenceView::clear() {
    setCaption({});
    setSequenceLayout({});
}

void SequenceView::showEvent(QShowEvent* event) {
    QAbstractScrollArea::showEvent(event);
    if (pendingRefresh_) {
        refreshResults(std::move(pendingRefresh_));
    }
}

void SequenceView::setSequenceLayout(SequenceLayout layout) {
    pendingRefresh_.reset();
    layout_ = std::move(layout);
    selectedArrow_ = kNoArrow;
    scale_.width = contentWidth();
    layout_.setSyscalls(syscallsFor(layout_));
    layout_.setScale(scale_);
    updateScrollBar();
    verticalScrollBar()->setValue(0);
    viewport()->update();
    emit diagramChanged();
}

std::vector<SequenceSyscall> SequenceView::syscallsFor(const SequenceLayout& layout) const {
    if (!syscalls_.empty() || layout.isEmpty() || layout.results()->alignment() == nullptr) {
        return syscalls_;
    }
    return sequenceSyscalls(*layout.results()->alignment(), *layout.diagram());
}

void SequenceView::setSyscalls(std::vector<SequenceSyscall> syscalls) {
    syscalls_ = std::move(syscalls);
    layout_.setSyscalls(syscallsFor(layout_));
    viewport()->update();
}

void SequenceView::setCompressGaps(bool on) {
    if (on == scale_.compressGaps) {
        return;
    }
    // Keep the time at the top of the view where it is.
    const int64_t topTs = layout_.timeAtY(scrollY());
    scale_.compressGaps = on;
    applyScale();
    setScrollY(layout_.yOfTime(topTs));
}

void SequenceView::setPixelsPerMs(double pixelsPerMs) {
    scale_.pixelsPerMs = std::clamp(pixelsPerMs, SequenceScale::kMinPixelsPerMs, SequenceScale::kMaxPixelsPerMs);
    applyScale();
}

void SequenceView::zoomIn() {
    zoomAbout(kZoomStep, viewportHeight() / 2.0);
}
void SequenceView::zoomOut() {
    zoomAbout(1 / kZoomStep, viewportHeight() / 2.0);
}

void SequenceView::zoomAbout(double factor, double viewportY) {
    const double contentY = scrollY() + viewportY - headerHeight();
    const int64_t anchorTs = layout_.timeAtY(contentY);
    scale_.pixelsPerMs =
        std::clamp(scale_.pixelsPerMs * factor, SequenceScale::kMinPixelsPerMs, SequenceScale::kMaxPixelsPerMs);
    applyScale();
    setScrollY(layout_.yOfTime(anchorTs) - (viewportY - headerHeight()));
}

double SequenceView::contentWidth() const {
    // A view that was never shown has not laid out its viewport yet (headless export, tests).
    if (!testAttribute(Qt::WA_PendingResizeEvent)) {
        return std::max(1, viewport()->width());
    }
    return std::max(1, width() - verticalScrollBar()->sizeHint().width() - 2 * frameWidth());
}

double SequenceView::viewportHeight() const {
    if (!testAttribute(Qt::WA_PendingResizeEvent)) {
        return viewport()->height();
    }
    return std::max(1, height() - 2 * frameWidth());
}

void SequenceView::applyScale() {
    scale_.width = contentWidth();
    layout_.setScale(scale_);
    updateScrollBar();
    viewport()->update();
}

double SequenceView::headerHeight() const {
    return sequenceHeaderHeight(paintOptions());
}

void SequenceView::updateScrollBar() {
    const double visible = std::max(1.0, viewportHeight() - headerHeight());
    const double scrollable = std::max(0.0, layout_.totalHeight() - visible);
    unitsPerStep_ = std::max(1.0, scrollable / kMaxScrollUnits);
    QScrollBar* bar = verticalScrollBar();
    bar->setRange(0, static_cast<int>(std::ceil(scrollable / unitsPerStep_)));
    bar->setPageStep(static_cast<int>(std::max(1.0, visible * 0.9 / unitsPerStep_)));
    bar->setSingleStep(static_cast<int>(std::max(1.0, layout_.scale().rowHeight / unitsPerStep_)));
}

double SequenceView::scrollY() const {
    return verticalScrollBar()->value() * unitsPerStep_;
}

void SequenceView::setScrollY(double y) {
    verticalScrollBar()->setValue(static_cast<int>(std::lround(std::max(0.0, y) / unitsPerStep_)));
    viewport()->update();
}

QPointF SequenceView::contentPoint(const QPointF& viewportPoint) const {
    return {viewportPoint.x(), viewportPoint.y() - headerHeight() + scrollY()};
}

QPointF SequenceView::viewportPoint(const QPointF& content) const {
    return {content.x(), content.y() + headerHeight() - scrollY()};
}

SequenceRowRange SequenceView::visibleRows() const {
    const double top = scrollY();
    return layout_.rowsIn(top, top + std::max(0.0, viewportHeight() - headerHeight()));
}

SequencePaintOptions SequenceView::paintOptions() const {
    SequencePaintOptions options;
    options.palette = palette();
    options.selectedArrow = selectedArrow_;
    options.notes = notePins_;
    return options;
}

void SequenceView::setNotePins(NotePins pins) {
    notePins_ = std::move(pins);
    viewport()->update();
}

void SequenceView::scrollToTime(int64_t tsNs) {
    const double visible = viewportHeight() - headerHeight();
    setScrollY(layout_.yOfTime(tsNs) - visible / 2);
}

void SequenceView::scrollToFrame(uint32_t frame) {
    const SequenceDiagram* diagram = layout_.diagram();
    if (diagram == nullptr || diagram->arrows().empty()) {
        return;
    }
    size_t arrow = diagram->arrowOfFrame(frame);
    if (arrow == kNoArrow) {
        const auto& arrows = diagram->arrows();
        const auto next = std::lower_bound(arrows.begin(), arrows.end(), frame,
                                           [](const SequenceArrow& a, uint32_t value) { return a.frame < value; });
        arrow = std::min(static_cast<size_t>(next - arrows.begin()), arrows.size() - 1);
    }
    select(arrow, false);
    const double visible = viewportHeight() - headerHeight();
    setScrollY(layout_.rowY(arrow) - visible / 3);
}

void SequenceView::select(size_t arrow, bool emitClick) {
    selectedArrow_ = arrow;
    viewport()->update();
    if (emitClick && arrow != kNoArrow && layout_.diagram() != nullptr) {
        emit packetClicked(layout_.diagram()->arrows()[arrow].packet);
    }
}

void SequenceView::render(QPainter& painter, const QRectF& target, SequenceRowRange rows) const {
    render(painter, target, rows, paintOptions());
}

void SequenceView::render(QPainter& painter, const QRectF& target, SequenceRowRange rows,
                          const SequencePaintOptions& options) const {
    renderSequence(painter, target, layout_, rows, options);
}

QSizeF SequenceView::renderSize(SequenceRowRange rows) const {
    return sequenceRenderSize(layout_, rows, paintOptions());
}

void SequenceView::paintEvent(QPaintEvent* /*event*/) {
    QPainter painter(viewport());
    const SequencePaintOptions options = paintOptions();
    const double header = headerHeight();
    const double top = scrollY();
    const double bottom = top + viewportHeight() - header;
    if (layout_.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect(), Qt::AlignCenter | Qt::TextWordWrap,
                         tr("Select a connection, or an incident or finding of one, to see its packets as a sequence "
                            "diagram; the pictures of incidents of many connections are in the Charts tab."));
        return;
    }
    const SequenceDrawList list = layout_.prepare(QRectF(0, top, layout_.scale().width, bottom - top));
    painter.save();
    painter.translate(0, header - top);
    painter.setClipRect(QRectF(0, top, layout_.scale().width, bottom - top));
    paintSequenceContent(painter, layout_, list, options);
    painter.restore();
    paintSequenceHeader(painter, list, layout_.scale().width, options);
}

void SequenceView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    placeCaption();
    const int64_t topTs = layout_.timeAtY(scrollY());
    applyScale();
    if (scrollY() > 0) {
        setScrollY(layout_.yOfTime(topTs));
    }
}

void SequenceView::scrollContentsBy(int /*dx*/, int /*dy*/) {
    viewport()->update();
}

void SequenceView::wheelEvent(QWheelEvent* event) {
    if ((event->modifiers() & Qt::ControlModifier) != 0) {
        const double steps = event->angleDelta().y() / 120.0;
        zoomAbout(std::pow(kZoomStep, steps), event->position().y());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void SequenceView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && event->position().y() > headerHeight()) {
        const size_t arrow = layout_.arrowAt(contentPoint(event->position()));
        if (arrow != kNoArrow) {
            select(arrow, true);
            event->accept();
            return;
        }
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void SequenceView::keyPressEvent(QKeyEvent* event) {
    const SequenceDiagram* diagram = layout_.diagram();
    const size_t count = diagram == nullptr ? 0 : diagram->arrows().size();
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: zoomIn(); return;
        case Qt::Key_Minus: zoomOut(); return;
        case Qt::Key_Down:
        case Qt::Key_Up: {
            if (count == 0) {
                break;
            }
            size_t next = 0;
            if (selectedArrow_ == kNoArrow) {
                next = visibleRows().first;
            } else if (event->key() == Qt::Key_Down) {
                next = std::min(selectedArrow_ + 1, count - 1);
            } else {
                next = selectedArrow_ == 0 ? 0 : selectedArrow_ - 1;
            }
            select(std::min(next, count - 1), true);
            const SequenceRowRange visible = visibleRows();
            if (selectedArrow_ <= visible.first || selectedArrow_ + 1 >= visible.end) {
                const double visibleHeight = viewportHeight() - headerHeight();
                setScrollY(layout_.rowY(selectedArrow_) - visibleHeight / 2);
            }
            return;
        }
        default: break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

SequenceContext SequenceView::contextAt(const QPointF& viewportPoint) const {
    SequenceContext context;
    if (layout_.diagram() == nullptr || viewportPoint.y() <= headerHeight()) {
        return context;
    }
    const QPointF point = contentPoint(viewportPoint);
    const size_t syscall = layout_.syscallAt(point);
    context.syscall = syscall == SequenceLayout::kNoSyscall ? nullptr : &layout_.syscalls()[syscall];
    context.arrow = layout_.arrowAt(point);
    context.tsNs = layout_.timeAtY(point.y());
    return context;
}

uint32_t SequenceView::earlierConnectionAt(const QPointF& viewportPoint) const {
    if (layout_.diagram() == nullptr || viewportPoint.y() <= headerHeight()) {
        return kNoConnection;
    }
    const SequenceDiagram& diagram = *layout_.diagram();
    const QPointF point = contentPoint(viewportPoint);
    if (const CollisionArrow* collision = diagram.collisionArrowOf(layout_.arrowAt(point))) {
        return collision->earlierConnection;
    }
    const SequenceDrawList list = layout_.prepare(QRectF(0, point.y() - 1, layout_.scale().width, 2));
    for (const auto& bracket : list.brackets) {
        if (bracket.band.adjusted(-14, 0, 0, 0).contains(point) || bracket.labelRect.contains(point)) {
            return diagram.stalls()[bracket.stall].earlierConnection;
        }
    }
    return kNoConnection;
}

void SequenceView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    if (layout_.diagram() != nullptr && event->pos().y() > headerHeight()) {
        emit contextMenuAboutToShow(&menu, contextAt(QPointF(event->pos())));
    }
    // A port reuse collision: the connection whose TIME_WAIT its SYN ran into is one step away.
    const uint32_t earlier = earlierConnectionAt(QPointF(event->pos()));
    if (earlier != kNoConnection && layout_.results()) {
        if (!menu.isEmpty()) {
            menu.addSeparator();
        }
        const ResultsPtr results = layout_.results();
        menu.addAction(tr("Show #%1, whose old state the SYN ran into").arg(earlier), this,
                       [this, results, earlier] { showConnection(results, earlier); });
    }
    if (!menu.isEmpty()) {
        menu.addSeparator();
    }
    menu.addAction(tr("Zoom in\t+"), this, &SequenceView::zoomIn);
    menu.addAction(tr("Zoom out\t-"), this, &SequenceView::zoomOut);
    QAction* compress = menu.addAction(tr("Compress long silences"), this, &SequenceView::setCompressGaps);
    compress->setCheckable(true);
    compress->setChecked(scale_.compressGaps);
    menu.exec(event->globalPos());
}

bool SequenceView::viewportEvent(QEvent* event) {
    if (event->type() == QEvent::ToolTip && layout_.diagram() != nullptr) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPointF point = contentPoint(help->pos());
        const size_t arrow = layout_.arrowAt(point);
        QString tip;
        if (arrow != kNoArrow) {
            const SequenceDiagram& diagram = *layout_.diagram();
            const SequenceArrow& drawn = diagram.arrows()[arrow];
            tip = tr("Frame %1: %2 \u2192 %3\n%4")
                      .arg(drawn.frame)
                      .arg(QString::fromStdString(diagram.participants()[drawn.from].role),
                           QString::fromStdString(diagram.participants()[drawn.to].role),
                           QString::fromStdString(diagram.arrowLabel(arrow, FlagNaming::Words)));
        }
        // Over a stall's band: what it is and why, in full.
        const SequenceDrawList list = layout_.prepare(QRectF(0, point.y() - 1, layout_.scale().width, 2));
        for (const auto& bracket : list.brackets) {
            if (bracket.band.adjusted(-14, 0, 0, 0).contains(point) || bracket.labelRect.contains(point)) {
                tip += (tip.isEmpty() ? QString() : QStringLiteral("\n\n")) + bracket.text + QStringLiteral(".\n") +
                       bracket.explanation + QLatin1Char('.');
                break;
            }
        }
        if (tip.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), tip, viewport());
        }
        return true;
    }
    if (event->type() == QEvent::PaletteChange) {
        viewport()->update();
    }
    return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace tcpscope::ui
