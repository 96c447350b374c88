#pragma once
#include <string>
#include <vector>

#include "annotate/note_set.hpp"
#include "engine/analysis_engine.hpp"
#include "engine/capture_loader.hpp"

namespace tcpscope {

/// The file name of `path` without its folders ("-" stays "-").
std::string captureFileName(const std::string& path);
/// Puts the packet comments of the opened pcapng files into `notes` as read-only notes "from the
/// capture", replacing earlier ones. Each is pinned to its frame, with the frame's time when it
/// is a TCP packet of the index (other frames are listed but not drawn on the time axis).
void showCaptureComments(NoteSet& notes, const AnalysisEngine& engine, const std::vector<InputSummary>& inputs);

}  // namespace tcpscope
