#include "annotate/capture_notes.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "annotate/capture_comments.hpp"
#include "annotate/note_sidecar.hpp"

namespace tcpscope {

namespace {

namespace fs = std::filesystem;

// 64-bit FNV-1a: a stable short name for a capture's absolute path.
uint64_t pathHash(const std::string& path) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : path) {
        hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001b3ULL;
    }
    return hash;
}

bool isInside(const fs::path& folder, const std::string& shared) {
    std::error_code error;
    const fs::path root = fs::weakly_canonical(shared, error);
    if (error || root.empty()) {
        return false;
    }
    return std::mismatch(root.begin(), root.end(), folder.begin(), folder.end()).first == root.end();
}

}  // namespace

std::string placedSidecarPath(const std::string& capturePath, const NotePlacement& placement, std::string& shipped) {
    shipped.clear();
    const std::string beside = noteSidecarPath(capturePath);
    if (beside.empty() || placement.userNotesDir.empty()) {
        return beside;
    }
    std::error_code error;
    const fs::path capture = fs::weakly_canonical(capturePath, error);
    if (error) {
        return beside;
    }
    const fs::path folder = capture.parent_path();
    const bool shared = std::any_of(placement.sharedDirs.begin(), placement.sharedDirs.end(),
                                    [&](const std::string& dir) { return isInside(folder, dir); });
    if (!shared && ::access(folder.c_str(), W_OK) == 0) {
        return beside;
    }
    shipped = beside;
    return (fs::path(placement.userNotesDir) /
            fmt::format("{}-{:016x}{}", capture.filename().string(), pathHash(capture.string()), kNoteSidecarSuffix))
        .string();
}

CaptureNotes openCaptureNotes(const std::vector<std::string>& paths, const AnalysisEngine& engine,
                              const std::vector<InputSummary>& inputs, const NotePlacement& placement) {
    CaptureNotes opened;
    for (const std::string& path : paths) {
        opened.captures.push_back(captureFileName(path));
    }
    std::string shipped;
    opened.sidecarPath = paths.empty() ? std::string() : placedSidecarPath(paths.front(), placement, shipped);
    if (!opened.sidecarPath.empty()) {
        try {
            std::optional<NoteSidecar> sidecar = readNoteSidecar(opened.sidecarPath);
            if (!sidecar && !shipped.empty()) {
                sidecar = readNoteSidecar(shipped);
            }
            if (sidecar) {
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
    std::error_code error;
    std::filesystem::create_directories(std::filesystem::path(notes.sidecarPath).parent_path(), error);
    writeNoteSidecar(notes.sidecarPath, NoteSidecar{notes.captures, notes.notes.userNotes()});
}

}  // namespace tcpscope
