#pragma once
#include <QFont>
#include <QPalette>
#include <vector>

#include "timeline/timeline_layout.hpp"
#include "views/note_pins.hpp"

class QPainter;

namespace tcpscope::ui {

/// Draws the notes over a prepared timeline frame (same coordinates as paintTimelineFrame): a
/// dashed line and a pin at a note's time across the lanes, a tinted band for a span, and the
/// note's first line beside the pin. Notes outside the frame's time range are skipped; labels
/// closer than a label's height to the one before go one line lower.
void paintTimelineNotes(QPainter& painter, const TimelineFrame& frame, const std::vector<NotePin>& pins,
                        const QPalette& palette, const QFont& font);

}  // namespace tcpscope::ui
