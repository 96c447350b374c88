#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "annotate/note.hpp"
#include "capture/capture_error.hpp"

namespace tcpscope {

/// Version of the sidecar format this build writes and the newest it reads.
inline constexpr int kNoteSidecarVersion = 1;
/// The sidecar's suffix, appended to the first capture file's path.
inline constexpr const char* kNoteSidecarSuffix = ".tcpscope-notes.json";
/// Largest sidecar read (bounds the memory a corrupt or hostile file can take).
inline constexpr uint64_t kMaxNoteSidecarBytes = 64ull << 20;

/// The user's notes on a capture, as kept next to it.
struct NoteSidecar {
    std::vector<std::string> captures;  ///< file names (no folders) of the captures the notes were made on
    std::vector<Note> notes;            ///< user notes only, in id order
};

/// A sidecar that cannot be read or written: the file, the byte offset and the reason.
class NoteFileError : public std::runtime_error {
public:
    explicit NoteFileError(InputProblem problem);
    [[nodiscard]] const InputProblem& problem() const { return problem_; }

private:
    InputProblem problem_;
};

/// "CAPTURE.tcpscope-notes.json" beside `capturePath`; empty for standard input ("-").
std::string noteSidecarPath(const std::string& capturePath);
/// Reads a sidecar. nullopt if there is none; throws NoteFileError if it is corrupt, too big or
/// from a newer version of the format.
std::optional<NoteSidecar> readNoteSidecar(const std::string& path);
/// Writes a sidecar atomically (a temporary file in the same folder, then a rename), so a crash
/// leaves the old or the new file, never half of one. Refuses any path that does not end with
/// kNoteSidecarSuffix, so a capture can never be overwritten. Throws NoteFileError.
void writeNoteSidecar(const std::string& path, const NoteSidecar& sidecar);

}  // namespace tcpscope
