#include "sequence/sequence_notes.hpp"

#include <QPainter>
#include <algorithm>

#include "views/note_paint.hpp"

namespace tcpscope::ui {

namespace {

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
        painter.setPen(noteLinePen(color));
        painter.drawLine(QPointF(call != nullptr ? call->x : left, y), QPointF(width - 4, y));
        if (call != nullptr) {
            paintNoteCallRing(painter, QPointF(call->x, call->y + 1), color);
        }
        paintNotePinHead(painter, width - 8, y, color);
        paintNoteLabel(painter, QPointF(width - 16, y + 2), pinLabel(pin), palette, color, true);
    }
    painter.restore();
}

}  // namespace tcpscope::ui
