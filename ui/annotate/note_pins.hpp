#pragma once
#include <QColor>
#include <QPalette>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "annotate/note_set.hpp"

namespace tcpscope::ui {

/// A note as the views draw it: where it sits on the capture clock and what it says.
struct NotePin {
    uint64_t id = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;    ///< equal to startNs except for a span
    uint32_t frame = 0;   ///< the packet it is pinned to, or 0
    QString text;         ///< first line of the note
    bool span = false;
    bool fromCapture = false;
};

/// Notes in time order, shared by every view that draws them (copied by pointer, never changed).
using NotePins = std::shared_ptr<const std::vector<NotePin>>;

/// The pins of every note of `notes` that has a time (a frame outside the index has none).
NotePins makeNotePins(const NoteSet& notes);
/// The colour of notes: a violet that reads on light and dark backgrounds and is no finding's hue.
QColor noteColor(const QPalette& palette);
/// The label of a pin: the first line of its text, with a mark for comments from the capture.
QString pinLabel(const NotePin& pin);

}  // namespace tcpscope::ui
