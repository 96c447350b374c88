#pragma once
#include <optional>
#include <ostream>

#include "analysis/capture_analysis.hpp"
#include "annotate/capture_notes.hpp"
#include "report/json_report_writer.hpp"

namespace tcpscope {

/// The notes `analyze` reports: the sidecar's notes beside the first capture and the pcapng files'
/// packet comments (read-only, origin "capture"). nullopt when there is neither, so the report of
/// a capture nobody annotated stays as it was.
std::optional<CaptureNotes> reportNotes(const CaptureAnalysis& analysis);
/// The top-level `notes` array of `analyze --format json` (the objects of `notes --format json`),
/// and `notes_error` {file, offset, reason} when the sidecar exists but cannot be read. Writes
/// nothing when reportNotes() is nullopt.
void writeNotesJson(JsonStreamWriter& out, const CaptureAnalysis& analysis);
/// The notes section of the text report: one line per note (id, target, time from the first
/// frame, text), as `tcpscope-cli notes` lists them. Writes nothing when reportNotes() is nullopt.
void writeNotesText(std::ostream& out, const CaptureAnalysis& analysis);
/// One line per note of `notes`: "#ID TARGET +S.SSSSSS s TEXT", times from `firstTsNs`.
void writeNoteLines(std::ostream& out, const NoteSet& notes, int64_t firstTsNs);

}  // namespace tcpscope
