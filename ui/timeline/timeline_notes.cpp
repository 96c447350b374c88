#include "timeline/timeline_notes.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

#include "views/note_paint.hpp"

namespace tcpscope::ui {

namespace {

// The syscall lane row of a pin in the frame, if it is laid out.
const LayoutRow* laneRowOf(const TimelineFrame& frame, const NotePin& pin) {
    if (pin.timelineLane < 0) {
        return nullptr;
    }
    const auto row = std::find_if(frame.rows.begin(), frame.rows.end(), [&](const LayoutRow& candidate) {
        return candidate.kind == RowKind::Extra && candidate.index == static_cast<uint32_t>(pin.timelineLane);
    });
    return row == frame.rows.end() ? nullptr : &*row;
}

}  // namespace

void paintTimelineNotes(QPainter& painter, const TimelineFrame& frame, const std::vector<NotePin>& pins,
                        const QPalette& palette, const QFont& font) {
    if (pins.empty()) {
        return;
    }
    const LayoutRect& plot = frame.plot;
    const QColor color = noteColor(palette);
    QColor band = color;
    band.setAlpha(45);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setFont(font);
    painter.setClipRect(QRectF(plot.x, plot.y, plot.w, plot.h), Qt::IntersectClip);
    const double lineHeight = QFontMetricsF(font).height() + 4;
    double lastLabelX = -1e9;
    int labelRow = 0;
    for (const NotePin& pin : pins) {
        const double x = frame.axis.toX(pin.startNs);
        const double endX = frame.axis.toX(pin.endNs);
        if (endX < plot.x || x > plot.right()) {
            continue;
        }
        if (pin.span) {
            painter.fillRect(QRectF(x, plot.y, std::max(endX - x, 1.0), plot.h), band);
        }
        painter.setPen(noteLinePen(color));
        painter.drawLine(QPointF(x, plot.y), QPointF(x, plot.bottom()));
        if (pin.span) {
            painter.drawLine(QPointF(endX, plot.y), QPointF(endX, plot.bottom()));
        }
        if (const LayoutRow* lane = laneRowOf(frame, pin)) {
            paintNoteCallRing(painter, QPointF(x, lane->markBand.y + lane->markBand.h / 2), color);
        }
        // Labels that would overlap the one before step down a line (three lines, then start again).
        labelRow = (x - lastLabelX < kNoteMaxLabelWidthPx && labelRow < 2) ? labelRow + 1 : 0;
        lastLabelX = x;
        const double headY = plot.y + kNotePinRadiusPx * 3 + 2 + labelRow * lineHeight;
        paintNotePinHead(painter, x, headY, color);
        paintNoteLabel(painter, QPointF(x + kNotePinRadiusPx + 2, headY - kNotePinRadiusPx * 3), pinLabel(pin), palette,
                       color, false);
    }
    painter.restore();
}

}  // namespace tcpscope::ui
