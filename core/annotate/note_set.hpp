#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "annotate/note.hpp"

namespace tcpscope {

/// The notes of one opened capture: the user's (editable, saved in the sidecar) and the comments
/// already in the pcapng files (read-only). Kept in id order; ids are never reused.
class NoteSet {
public:
    /// Adds a user note and returns its id. The text is made valid UTF-8 and cut to kMaxNoteTextBytes.
    uint64_t add(NoteTarget target, std::string text, int64_t createdNs);
    /// Adds a note read from a sidecar, keeping its id (and so the next ids above it).
    void restore(Note note);
    /// Replaces the text of a user note. False if there is no such note or it is read-only.
    bool edit(uint64_t id, std::string text);
    /// Removes a user note. False if there is no such note or it is read-only.
    bool remove(uint64_t id);
    /// Replaces every capture comment with `comments` (frame targets, origin Capture).
    void setCaptureComments(const std::vector<PacketNoteTarget>& targets, const std::vector<std::string>& texts);
    /// Removes every note.
    void clear();

    [[nodiscard]] const std::vector<Note>& notes() const { return notes_; }
    [[nodiscard]] const Note* find(uint64_t id) const;
    /// The user's notes only (what the sidecar holds).
    [[nodiscard]] std::vector<Note> userNotes() const;
    /// The notes pinned to frame `frame`, user notes and capture comments alike.
    [[nodiscard]] std::vector<const Note*> notesOnFrame(uint32_t frame) const;
    [[nodiscard]] bool empty() const { return notes_.empty(); }
    [[nodiscard]] size_t size() const { return notes_.size(); }

private:
    Note* findMutable(uint64_t id);
    void insertSorted(Note note);

    std::vector<Note> notes_;
    uint64_t nextId_ = 1;
};

}  // namespace tcpscope
