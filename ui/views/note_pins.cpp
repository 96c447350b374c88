#include "views/note_pins.hpp"

#include <algorithm>

#include "present/syscall_lanes.hpp"
#include "present/syscall_notes.hpp"

namespace tcpscope::ui {

NotePins makeNotePins(const NoteSet& notes) {
    auto pins = std::make_shared<std::vector<NotePin>>();
    for (const Note& note : notes.notes()) {
        const int64_t startNs = noteAnchorNs(note.target);
        if (startNs == 0) {
            continue;  // a frame with no known time: listed in the panel only
        }
        NotePin pin;
        pin.id = note.id;
        pin.startNs = startNs;
        pin.endNs = std::max(noteEndNs(note.target), startNs);
        pin.span = std::holds_alternative<SpanNoteTarget>(note.target);
        if (const auto* packet = std::get_if<PacketNoteTarget>(&note.target)) {
            pin.frame = packet->frame;
        } else if (const auto* call = std::get_if<SyscallNoteTarget>(&note.target)) {
            pin.syscallLog = call->logFile;
            pin.syscallLine = call->line;
        }
        const std::string firstLine = note.text.substr(0, note.text.find('\n'));
        pin.text = QString::fromStdString(firstLine);
        pin.fromCapture = note.readOnly();
        pins->push_back(std::move(pin));
    }
    std::stable_sort(pins->begin(), pins->end(),
                     [](const NotePin& a, const NotePin& b) { return a.startNs < b.startNs; });
    return pins;
}

NotePins placeSyscallPins(const NotePins& pins, const StraceAlignment* alignment) {
    if (!pins || alignment == nullptr ||
        std::none_of(pins->begin(), pins->end(), [](const NotePin& pin) { return !pin.syscallLog.empty(); })) {
        return pins;
    }
    auto placed = std::make_shared<std::vector<NotePin>>(*pins);
    for (NotePin& pin : *placed) {
        if (pin.syscallLog.empty()) {
            continue;
        }
        pin.syscall = findNoteSyscall(*alignment, pin.syscallLog, pin.syscallLine);
        if (!pin.syscall) {
            continue;
        }
        pin.startNs = pin.endNs =
            alignment->captureTsNs(pin.syscall->log, alignment->logs[pin.syscall->log].log.records[pin.syscall->record]);
        if (const std::optional<size_t> lane = syscallLaneOf(*alignment, *pin.syscall)) {
            pin.timelineLane = static_cast<int>(*lane);
        }
    }
    std::stable_sort(placed->begin(), placed->end(),
                     [](const NotePin& a, const NotePin& b) { return a.startNs < b.startNs; });
    return placed;
}

QColor noteColor(const QPalette& palette) {
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    return dark ? QColor(196, 140, 255) : QColor(128, 60, 200);
}

QString pinLabel(const NotePin& pin) {
    return pin.fromCapture ? QStringLiteral("\u270E %1 (capture)").arg(pin.text) : QStringLiteral("\u270E %1").arg(pin.text);
}

}  // namespace tcpscope::ui
