#include "annotate/capture_comments.hpp"

#include <filesystem>

namespace tcpscope {

std::string captureFileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

PacketNoteTarget packetNoteTarget(const AnalysisEngine& engine, const std::vector<InputSummary>& inputs, uint32_t frame) {
    const PacketIndex& index = engine.packets();
    PacketNoteTarget target;
    target.frame = frame;
    const size_t position = index.positionOfFrame(frame);
    uint32_t fileIndex = 0;
    if (position < index.size()) {
        const IndexedPacket packet = index.at(position);
        target.tsNs = packet.tsNs;
        fileIndex = packet.fileIndex;
    }
    if (fileIndex < inputs.size()) {
        target.file = captureFileName(inputs[fileIndex].path);
    }
    return target;
}

void showCaptureComments(NoteSet& notes, const AnalysisEngine& engine, const std::vector<InputSummary>& inputs) {
    std::vector<PacketNoteTarget> targets;
    std::vector<std::string> texts;
    for (const auto& [frame, text] : engine.packetComments()) {
        targets.push_back(packetNoteTarget(engine, inputs, frame));
        texts.push_back(text);
    }
    notes.setCaptureComments(targets, texts);
}

}  // namespace tcpscope
