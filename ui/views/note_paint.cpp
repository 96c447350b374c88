#include "views/note_paint.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace tcpscope::ui {

namespace {

constexpr double kPinRadiusPx = 4;
constexpr double kMaxLabelWidthPx = 260;

// A round pin head with its point at (x, y): the shape people know from maps.
void paintPinHead(QPainter& painter, double x, double y, const QColor& color) {
    QPainterPath pin;
    pin.moveTo(x, y);
    pin.lineTo(x - kPinRadiusPx * 0.8, y - kPinRadiusPx * 1.6);
    pin.arcTo(QRectF(x - kPinRadiusPx, y - kPinRadiusPx * 3, kPinRadiusPx * 2, kPinRadiusPx * 2), 215, -250);
    pin.closeSubpath();
    painter.fillPath(pin, color);
}

// The label on a box of the base colour, so it reads over packets and lanes.
void paintLabel(QPainter& painter, const QPointF& topLeft, const QString& text, const QPalette& palette,
                const QColor& color, bool rightAligned) {
    const QFontMetricsF metrics(painter.font());
    const QString elided = metrics.elidedText(text, Qt::ElideRight, kMaxLabelWidthPx);
    const double width = metrics.horizontalAdvance(elided) + 6;
    const QRectF box(rightAligned ? topLeft.x() - width : topLeft.x(), topLeft.y(), width, metrics.height() + 2);
    QColor background = palette.color(QPalette::Base);
    background.setAlpha(225);
    painter.fillRect(box, background);
    painter.setPen(QPen(color, 1));
    painter.drawRect(box);
    painter.setPen(palette.color(QPalette::Text));
    painter.drawText(box.adjusted(3, 1, -3, -1), Qt::AlignLeft | Qt::AlignVCenter, elided);
}

QPen dashedPen(const QColor& color) {
    QPen pen(color, 1.2);
    pen.setStyle(Qt::DashLine);
    return pen;
}

// A ring around the system call a note is pinned to, where the call is drawn.
void paintCallRing(QPainter& painter, const QPointF& center, const QColor& color) {
    painter.setPen(QPen(color, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(center, kPinRadiusPx + 2, kPinRadiusPx + 2);
}

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

// The drawn system call a pin is pinned to, or null.
const SequenceDrawList::Syscall* drawnCallOf(const SequenceLayout& layout, const SequenceDrawList& list,
                                             const NotePin& pin) {
    if (!pin.syscall) {
        return nullptr;
    }
    const auto drawn = std::find_if(list.syscalls.begin(), list.syscalls.end(), [&](const auto& call) {
        const auto& location = layout.syscalls()[call.syscall].location;
        return location && location->log == pin.syscall->log && location->record == pin.syscall->record;
    });
    return drawn == list.syscalls.end() ? nullptr : &*drawn;
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
        painter.setPen(dashedPen(color));
        painter.drawLine(QPointF(x, plot.y), QPointF(x, plot.bottom()));
        if (pin.span) {
            painter.drawLine(QPointF(endX, plot.y), QPointF(endX, plot.bottom()));
        }
        if (const LayoutRow* lane = laneRowOf(frame, pin)) {
            paintCallRing(painter, QPointF(x, lane->markBand.y + lane->markBand.h / 2), color);
        }
        // Labels that would overlap the one before step down a line (three lines, then start again).
        labelRow = (x - lastLabelX < kMaxLabelWidthPx && labelRow < 2) ? labelRow + 1 : 0;
        lastLabelX = x;
        const double headY = plot.y + kPinRadiusPx * 3 + 2 + labelRow * lineHeight;
        paintPinHead(painter, x, headY, color);
        paintLabel(painter, QPointF(x + kPinRadiusPx + 2, headY - kPinRadiusPx * 3), pinLabel(pin), palette, color,
                   false);
    }
    painter.restore();
}

void paintSequenceNotes(QPainter& painter, const SequenceLayout& layout, const SequenceDrawList& list,
                        const std::vector<NotePin>& pins, const QPalette& palette) {
    if (pins.empty() || layout.isEmpty()) {
        return;
    }
    const QColor color = noteColor(palette);
    QColor band = color;
    band.setAlpha(40);
    const double width = layout.scale().width;
    const double left = layout.timeGutter();
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const NotePin& pin : pins) {
        // A packet note sits on its arrow; other notes at their time on the diagram's scale.
        double y = -1;
        if (pin.frame != 0) {
            const auto arrow = std::find_if(list.arrows.begin(), list.arrows.end(),
                                            [&](const auto& drawn) { return drawn.frame == pin.frame; });
            if (arrow != list.arrows.end()) {
                y = arrow->start.y();
            }
        }
        const SequenceDrawList::Syscall* call = drawnCallOf(layout, list, pin);
        if (call != nullptr) {
            y = call->y;
        }
        if (y < 0) {
            y = layout.yOfTime(pin.startNs);
        }
        const double endY = pin.span ? layout.yOfTime(pin.endNs) : y;
        if (endY < list.top || y > list.bottom) {
            continue;
        }
        if (pin.span) {
            painter.fillRect(QRectF(left, y, width - left, std::max(endY - y, 1.0)), band);
        }
        painter.setPen(dashedPen(color));
        painter.drawLine(QPointF(call != nullptr ? call->x : left, y), QPointF(width - 4, y));
        if (call != nullptr) {
            paintCallRing(painter, QPointF(call->x, call->y + 1), color);
        }
        paintPinHead(painter, width - 8, y, color);
        paintLabel(painter, QPointF(width - 16, y + 2), pinLabel(pin), palette, color, true);
    }
    painter.restore();
}

}  // namespace tcpscope::ui
