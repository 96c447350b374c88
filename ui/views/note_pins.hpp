#pragma once
#include <QColor>
#include <QPalette>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "annotate/note_set.hpp"
#include "present/traced_call.hpp"

namespace tcpscope::ui {

/// A note as the views draw it: where it sits on the capture clock and what it says.
struct NotePin {
    uint64_t id = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;    ///< equal to startNs except for a span
    uint32_t frame = 0;   ///< the packet it is pinned to, or 0
    std::string syscallLog;    ///< a system call note: the strace file's name (else empty)
    uint32_t syscallLine = 0;  ///< and the line its call starts on
    /// A system call note placed on the alignment (placeSyscallPins()): its call there, and the
    /// timeline's syscall lane that shows it (-1: none).
    std::optional<SyscallLocation> syscall;
    int timelineLane = -1;
    QString text;         ///< first line of the note
    bool span = false;
    bool fromCapture = false;
};

/// Notes in time order, shared by every view that draws them (copied by pointer, never changed).
using NotePins = std::shared_ptr<const std::vector<NotePin>>;

/// The pins of every note of `notes` that has a time (a frame outside the index has none).
NotePins makeNotePins(const NoteSet& notes);
/// `pins` with their system call notes placed on `alignment`: the call's record, its time on the
/// capture's clock (the alignment may have moved since the note was made) and its timeline lane.
/// Without an alignment, or for a call not in it, a pin keeps the time saved with the note.
NotePins placeSyscallPins(const NotePins& pins, const StraceAlignment* alignment);
/// The colour of notes: a violet that reads on light and dark backgrounds and is no finding's hue.
QColor noteColor(const QPalette& palette);
/// The label of a pin: the first line of its text, with a mark for comments from the capture.
QString pinLabel(const NotePin& pin);

}  // namespace tcpscope::ui
