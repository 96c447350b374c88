#include "annotate/note_set.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "text/valid_utf8.hpp"

namespace tcpscope {

namespace {

// A note's text as every writer may take it: valid UTF-8 (whoever typed it or wrote the file it
// came from), no longer than the limit.
std::string bounded(std::string text) {
    makeValidUtf8(text);
    text.resize(utf8Prefix(text, kMaxNoteTextBytes).size());
    return text;
}

}  // namespace

uint64_t NoteSet::add(NoteTarget target, std::string text, int64_t createdNs) {
    Note note;
    note.id = nextId_++;
    note.text = bounded(std::move(text));
    note.createdNs = createdNs;
    note.target = std::move(target);
    note.origin = NoteOrigin::User;
    notes_.push_back(std::move(note));
    return notes_.back().id;
}

void NoteSet::restore(Note note) {
    note.text = bounded(std::move(note.text));
    nextId_ = std::max(nextId_, note.id + 1);
    if (find(note.id) != nullptr) {
        note.id = nextId_++;  // a duplicate id in a hand-edited sidecar: keep both notes
    }
    insertSorted(std::move(note));
}

bool NoteSet::edit(uint64_t id, std::string text) {
    Note* note = findMutable(id);
    if (note == nullptr || note->readOnly()) {
        return false;
    }
    note->text = bounded(std::move(text));
    return true;
}

bool NoteSet::remove(uint64_t id) {
    const auto found = std::find_if(notes_.begin(), notes_.end(), [id](const Note& note) { return note.id == id; });
    if (found == notes_.end() || found->readOnly()) {
        return false;
    }
    notes_.erase(found);
    return true;
}

void NoteSet::setCaptureComments(const std::vector<PacketNoteTarget>& targets, const std::vector<std::string>& texts) {
    std::erase_if(notes_, [](const Note& note) { return note.readOnly(); });
    const size_t count = std::min(targets.size(), texts.size());
    for (size_t i = 0; i < count; ++i) {
        Note note;
        note.id = nextId_++;
        note.text = bounded(texts[i]);
        note.target = targets[i];
        note.origin = NoteOrigin::Capture;
        notes_.push_back(std::move(note));
    }
}

void NoteSet::clear() { notes_.clear(); }

const Note* NoteSet::find(uint64_t id) const {
    const auto found = std::lower_bound(notes_.begin(), notes_.end(), id,
                                        [](const Note& note, uint64_t wanted) { return note.id < wanted; });
    return found != notes_.end() && found->id == id ? &*found : nullptr;
}

Note* NoteSet::findMutable(uint64_t id) { return const_cast<Note*>(std::as_const(*this).find(id)); }

std::vector<Note> NoteSet::userNotes() const {
    std::vector<Note> user;
    std::copy_if(notes_.begin(), notes_.end(), std::back_inserter(user), [](const Note& note) { return !note.readOnly(); });
    return user;
}

std::vector<const Note*> NoteSet::notesOnFrame(uint32_t frame) const {
    std::vector<const Note*> onFrame;
    for (const Note& note : notes_) {
        const auto* packet = std::get_if<PacketNoteTarget>(&note.target);
        if (packet != nullptr && packet->frame == frame) {
            onFrame.push_back(&note);
        }
    }
    return onFrame;
}

void NoteSet::insertSorted(Note note) {
    const auto position = std::upper_bound(notes_.begin(), notes_.end(), note.id,
                                           [](uint64_t id, const Note& existing) { return id < existing.id; });
    notes_.insert(position, std::move(note));
}

}  // namespace tcpscope
