#pragma once
#include <QColor>
#include <QPalette>
#include <QPen>
#include <QPointF>
#include <QString>

class QPainter;

namespace tcpscope::ui {

// The marks a note is drawn with in every view (the timeline's and the sequence diagram's note
// painting use them: timeline/timeline_notes, sequence/sequence_notes).

inline constexpr double kNotePinRadiusPx = 4;
inline constexpr double kNoteMaxLabelWidthPx = 260;

/// A round pin head with its point at (x, y): the shape people know from maps.
void paintNotePinHead(QPainter& painter, double x, double y, const QColor& color);
/// The label on a box of the base colour, so it reads over packets and lanes; elided to
/// kNoteMaxLabelWidthPx, left of topLeft.x() when `rightAligned`.
void paintNoteLabel(QPainter& painter, const QPointF& topLeft, const QString& text, const QPalette& palette,
                    const QColor& color, bool rightAligned);
/// The dashed line across a view at a note's time.
QPen noteLinePen(const QColor& color);
/// A ring around the system call a note is pinned to, where the call is drawn.
void paintNoteCallRing(QPainter& painter, const QPointF& center, const QColor& color);

}  // namespace tcpscope::ui
