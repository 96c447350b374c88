#include "report/report_notes.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>

#include "annotate/note_json.hpp"
#include "text/display_text.hpp"

namespace tcpscope {

std::optional<CaptureNotes> reportNotes(const CaptureAnalysis& analysis) {
    if (analysis.engine == nullptr) {
        return std::nullopt;
    }
    std::vector<std::string> paths;
    for (const InputSummary& input : analysis.inputs) {
        paths.push_back(input.path);
    }
    CaptureNotes notes = openCaptureNotes(paths, *analysis.engine, analysis.inputs);
    std::error_code ignored;
    const bool sidecarExists = !notes.sidecarPath.empty() && std::filesystem::exists(notes.sidecarPath, ignored);
    if (!sidecarExists && notes.notes.empty()) {
        return std::nullopt;
    }
    return notes;
}

void writeNotesJson(JsonStreamWriter& out, const CaptureAnalysis& analysis) {
    const std::optional<CaptureNotes> notes = reportNotes(analysis);
    if (!notes) {
        return;
    }
    out.key("notes");
    out.beginArray();
    for (const Note& note : notes->notes.notes()) {
        out.value(noteToJson(note, NoteTimeForm::EpochSeconds, analysis.engine->timeOrigin()));
    }
    out.endArray();
    if (notes->sidecarProblem) {
        const InputProblem& problem = *notes->sidecarProblem;
        out.field("notes_error", nlohmann::ordered_json{
                                     {"file", problem.file}, {"offset", problem.offset}, {"reason", problem.reason}});
    }
}

void writeNoteLines(std::ostream& out, const NoteSet& notes, int64_t firstTsNs) {
    for (const Note& note : notes.notes()) {
        const int64_t anchorNs = noteAnchorNs(note.target);
        const std::string at = anchorNs != 0 ? fmt::format("{:+.6f} s", static_cast<double>(anchorNs - firstTsNs) / 1e9)
                                             : std::string("-");
        fmt::print(out, "  #{:<4} {:<40} {:>14}  {}{}\n", note.id,
                   displayText(describeNoteTarget(note.target), LineBreaks::Spaces), at,
                   displayText(note.text, LineBreaks::Spaces), note.readOnly() ? "  (from the capture)" : "");
    }
}

void writeNotesText(std::ostream& out, const CaptureAnalysis& analysis) {
    const std::optional<CaptureNotes> notes = reportNotes(analysis);
    if (!notes) {
        return;
    }
    fmt::print(out, "\nNotes ({}), sidecar {}\n", notes->notes.size(),
               displayText(notes->sidecarPath, LineBreaks::Spaces));
    if (notes->sidecarProblem) {
        fmt::print(out, "  not read: {}\n", notes->sidecarProblem->describe());
    }
    writeNoteLines(out, notes->notes, analysis.engine->firstTsNs());
}

}  // namespace tcpscope
