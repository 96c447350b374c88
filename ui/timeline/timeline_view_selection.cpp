// TimelineView: the time span selected with Shift+drag, and what a context menu is about.
#include <QPainter>

#include <algorithm>

#include "present/syscall_lanes.hpp"
#include "timeline/timeline_view.hpp"

namespace tcpscope::ui {

namespace {
constexpr double kMinSelectionPx = 3;  // narrower than this is a click, not a span
}  // namespace

void TimelineView::setSelectedSpan(std::optional<TimeRange> span) {
    if (span && span->endNs < span->startNs) {
        std::swap(span->startNs, span->endNs);
    }
    selectedSpan_ = span;
    viewport()->update();
}

void TimelineView::beginSelection(const QPointF& position) {
    selecting_ = true;
    selectionAnchorNs_ = axis_.toNs(position.x());
    setSelectedSpan(TimeRange{selectionAnchorNs_, selectionAnchorNs_});
    viewport()->setCursor(Qt::IBeamCursor);
}

void TimelineView::extendSelection(const QPointF& position) {
    const double x = std::clamp(position.x(), gutterPx_, gutterPx_ + plotWidth());
    const int64_t atNs = axis_.toNs(x);
    setSelectedSpan(TimeRange{std::min(selectionAnchorNs_, atNs), std::max(selectionAnchorNs_, atNs)});
}

void TimelineView::endSelection() {
    selecting_ = false;
    viewport()->unsetCursor();
    if (selectedSpan_ && static_cast<double>(selectedSpan_->lengthNs()) < kMinSelectionPx * axis_.nsPerPx()) {
        setSelectedSpan(std::nullopt);
    }
}

void TimelineView::paintSelection(QPainter& painter) const {
    if (!selectedSpan_) {
        return;
    }
    const LayoutRect& plot = frame_.plot;
    const double left = std::max(axis_.toX(selectedSpan_->startNs), plot.x);
    const double right = std::min(axis_.toX(selectedSpan_->endNs), plot.right());
    if (right < left) {
        return;
    }
    QColor band = palette().color(QPalette::Highlight);
    band.setAlpha(50);
    QColor edge = palette().color(QPalette::Highlight);
    painter.save();
    painter.fillRect(QRectF(left, plot.y, std::max(right - left, 1.0), plot.h), band);
    painter.setPen(QPen(edge, 1));
    painter.drawLine(QPointF(left, plot.y), QPointF(left, plot.bottom()));
    painter.drawLine(QPointF(right, plot.y), QPointF(right, plot.bottom()));
    const QString length = QString::fromStdString(formatDuration(selectedSpan_->lengthNs()));
    const QFontMetricsF metrics(painter.font());
    const QRectF label(left + 3, plot.y + 2, metrics.horizontalAdvance(length) + 6, metrics.height() + 2);
    painter.fillRect(label, palette().color(QPalette::Highlight));
    painter.setPen(palette().color(QPalette::HighlightedText));
    painter.drawText(label, Qt::AlignCenter, length);
    painter.restore();
}

TimelineContext TimelineView::contextAt(const QPointF& viewportPoint) const {
    TimelineContext context;
    if (viewportPoint.x() >= gutterPx_) {
        context.tsNs = axis_.toNs(viewportPoint.x());
    }
    if (selectedSpan_ && context.tsNs != kNoTime && context.tsNs >= selectedSpan_->startNs &&
        context.tsNs <= selectedSpan_->endNs) {
        context.selection = selectedSpan_;
    }
    const TimelineHit hit = frame_.hitTest(viewportPoint.x(), viewportPoint.y());
    // Syscall lanes come first among the extra lanes (lanesToShow()); a folded mark is its first call.
    if (hit.kind == HitKind::Events && results_ && results_->alignment() != nullptr) {
        context.syscall = syscallOfLaneEvent(*results_->alignment(), hit.rowIndex, hit.item);
    }
    return context;
}

}  // namespace tcpscope::ui
