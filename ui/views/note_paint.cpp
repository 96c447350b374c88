#include "views/note_paint.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

namespace tcpscope::ui {

void paintNotePinHead(QPainter& painter, double x, double y, const QColor& color) {
    QPainterPath pin;
    pin.moveTo(x, y);
    pin.lineTo(x - kNotePinRadiusPx * 0.8, y - kNotePinRadiusPx * 1.6);
    pin.arcTo(QRectF(x - kNotePinRadiusPx, y - kNotePinRadiusPx * 3, kNotePinRadiusPx * 2, kNotePinRadiusPx * 2), 215,
              -250);
    pin.closeSubpath();
    painter.fillPath(pin, color);
}

void paintNoteLabel(QPainter& painter, const QPointF& topLeft, const QString& text, const QPalette& palette,
                    const QColor& color, bool rightAligned) {
    const QFontMetricsF metrics(painter.font());
    const QString elided = metrics.elidedText(text, Qt::ElideRight, kNoteMaxLabelWidthPx);
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

QPen noteLinePen(const QColor& color) {
    QPen pen(color, 1.2);
    pen.setStyle(Qt::DashLine);
    return pen;
}

void paintNoteCallRing(QPainter& painter, const QPointF& center, const QColor& color) {
    painter.setPen(QPen(color, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawEllipse(center, kNotePinRadiusPx + 2, kNotePinRadiusPx + 2);
}

}  // namespace tcpscope::ui
