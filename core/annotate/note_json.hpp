#pragma once
#include <nlohmann/json.hpp>

#include "annotate/note.hpp"
#include "capture/time_origin.hpp"

namespace tcpscope {

/// How times are written: exact integer nanoseconds (the sidecar) or epoch seconds with
/// microsecond fractions (the JSON report's time form).
enum class NoteTimeForm : uint8_t { Nanoseconds, EpochSeconds };

/// One note as a JSON object: id, text, created, origin, target {type, ...}. Epoch seconds add
/// `captureOrigin` (AnalysisEngine::timeOrigin()) to the target's capture times.
nlohmann::ordered_json noteToJson(const Note& note, NoteTimeForm form, TimeOrigin captureOrigin = {});
/// A note from noteToJson(..., Nanoseconds). Throws std::invalid_argument naming the bad field.
Note noteFromJson(const nlohmann::json& object);

}  // namespace tcpscope
