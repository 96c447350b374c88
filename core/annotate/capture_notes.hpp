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
/// Where the user's notes of a capture are kept: beside the capture, unless it lies in a folder
/// that is not the user's (a bundled sample's, or one the user cannot write), where they go into
/// the user's own notes folder instead.
struct NotePlacement {
    /// The user's notes folder (e.g. ~/.local/share/tcpscope/notes); empty: always beside the capture.
    std::string userNotesDir;
    /// Folders whose captures never get notes written beside them (the bundled samples).
    std::vector<std::string> sharedDirs;
};

/// The sidecar of `capturePath` under `placement`; `shipped` gets the sidecar beside the capture
/// when the notes go elsewhere (notes that came with the capture are read from it until the user's
/// own are saved), else empty.
std::string placedSidecarPath(const std::string& capturePath, const NotePlacement& placement, std::string& shipped);

CaptureNotes openCaptureNotes(const std::vector<std::string>& paths, const AnalysisEngine& engine,
                              const std::vector<InputSummary>& inputs, const NotePlacement& placement = {});
/// Writes the user's notes to the sidecar. Throws NoteFileError if there is no sidecar path
/// (standard input) or the existing sidecar could not be read (it is kept as it is).
void saveCaptureNotes(const CaptureNotes& notes);

}  // namespace tcpscope
