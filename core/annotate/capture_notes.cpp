#include "annotate/capture_notes.hpp"

#include <fmt/format.h>

#include "annotate/capture_comments.hpp"
#include "annotate/note_sidecar.hpp"

namespace tcpscope {

CaptureNotes openCaptureNotes(const std::vector<std::string>& paths, const AnalysisEngine& engine,
                              const std::vector<InputSummary>& inputs) {
    CaptureNotes opened;
    for (const std::string& path : paths) {
        opened.captures.push_back(captureFileName(path));
    }
    opened.sidecarPath = paths.empty() ? std::string() : noteSidecarPath(paths.front());
    if (!opened.sidecarPath.empty()) {
        try {
            if (auto sidecar = readNoteSidecar(opened.sidecarPath)) {
                for (Note& note : sidecar->notes) {
                    opened.notes.restore(std::move(note));
                }
                if (!sidecar->captures.empty() && sidecar->captures != opened.captures) {
                    opened.capturesMismatch = fmt::format("{}: notes were made on {}, not on {}", opened.sidecarPath,
                                                          fmt::join(sidecar->captures, ", "),
                                                          fmt::join(opened.captures, ", "));
                }
            }
        } catch (const NoteFileError& error) {
            opened.sidecarProblem = error.problem();
        }
    }
    showCaptureComments(opened.notes, engine, inputs);
    return opened;
}

void saveCaptureNotes(const CaptureNotes& notes) {
    if (notes.sidecarPath.empty()) {
        throw NoteFileError(InputProblem{"-", 0, "notes on standard input cannot be saved (no file to keep them beside)"});
    }
    if (notes.sidecarProblem) {
        throw NoteFileError(InputProblem{notes.sidecarPath, 0,
                                         fmt::format("not saved: the existing notes file could not be read ({}); "
                                                     "move it away to start new notes",
                                                     notes.sidecarProblem->reason)});
    }
    writeNoteSidecar(notes.sidecarPath, NoteSidecar{notes.captures, notes.notes.userNotes()});
}

}  // namespace tcpscope
