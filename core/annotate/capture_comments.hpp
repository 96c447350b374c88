#pragma once
#include <string>
#include <vector>

#include "annotate/note_set.hpp"
#include "engine/analysis_engine.hpp"
#include "engine/capture_loader.hpp"

namespace tcpscope {

/// The file name of `path` without its folders ("-" stays "-").
std::string captureFileName(const std::string& path);
/// The target of a note on frame `frame`: its file and, when it is a TCP packet of the index, its time
/// (other frames get time 0: listed, but not drawn on the time axis).
PacketNoteTarget packetNoteTarget(const AnalysisEngine& engine, const std::vector<InputSummary>& inputs, uint32_t frame);
/// Puts the packet comments of the opened pcapng files into `notes` as read-only notes "from the
/// capture", replacing earlier ones. Each is pinned to its frame, with the frame's own time and file
/// (TCP or not; read as the frames were counted, so no packet index is needed).
void showCaptureComments(NoteSet& notes, const AnalysisEngine& engine, const std::vector<InputSummary>& inputs);

}  // namespace tcpscope
