#pragma once
#include <QPalette>
#include <vector>

#include "sequence/sequence_layout.hpp"
#include "views/note_pins.hpp"

class QPainter;

namespace tcpscope::ui {

/// Draws the notes over a prepared sequence diagram (content coordinates, as paintSequenceContent):
/// a pin and label at the right edge at the note's time, a dashed line across the diagram, and a
/// band for a span.
void paintSequenceNotes(QPainter& painter, const SequenceLayout& layout, const SequenceDrawList& list,
                        const std::vector<NotePin>& pins, const QPalette& palette);

}  // namespace tcpscope::ui
