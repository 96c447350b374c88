#include "annotate/note_pins.hpp"

#include <algorithm>

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

QColor noteColor(const QPalette& palette) {
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    return dark ? QColor(196, 140, 255) : QColor(128, 60, 200);
}

QString pinLabel(const NotePin& pin) {
    return pin.fromCapture ? QStringLiteral("\u270E %1 (capture)").arg(pin.text) : QStringLiteral("\u270E %1").arg(pin.text);
}

}  // namespace tcpscope::ui
