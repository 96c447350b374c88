#pragma once
#include <optional>
#include <string>
#include <vector>

#include "annotate/note_set.hpp"
#include "capture/capture_error.hpp"
#include "engine/analysis_engine.hpp"
#include "engine/capture_loader.hpp"

namespace tcpscope {

/// The notes of one opened capture: the user's from the sidecar beside the first file, and the
/// comments of the pcapng files (read-only).
struct CaptureNotes {
    std::string sidecarPath;            ///< empty when the capture is standard input (nothing is saved)
    std::vector<std::string> captures;  ///< file names of the opened captures, as saved in the sidecar
    NoteSet notes;
    /// Set when the sidecar exists but could not be read (corrupt, newer format): the capture
    /// stays usable, and saving is refused so that the file is not lost.
    std::optional<InputProblem> sidecarProblem;
    /// Set when the sidecar was written for other capture files than the ones opened.
    std::optional<std::string> capturesMismatch;
};

/// Reads the sidecar of `paths` (if any) and adds the capture's own comments.
CaptureNotes openCaptureNotes(const std::vector<std::string>& paths, const AnalysisEngine& engine,
                              const std::vector<InputSummary>& inputs);
/// Writes the user's notes to the sidecar. Throws NoteFileError if there is no sidecar path
/// (standard input) or the existing sidecar could not be read (it is kept as it is).
void saveCaptureNotes(const CaptureNotes& notes);

}  // namespace tcpscope
