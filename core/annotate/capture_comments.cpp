#include "annotate/capture_comments.hpp"

#include <filesystem>

namespace tcpscope {

std::string captureFileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

namespace {

PacketNoteTarget targetOf(const std::vector<InputSummary>& inputs, uint32_t frame, int64_t tsNs, uint32_t fileIndex) {
    PacketNoteTarget target;
    target.frame = frame;
    target.tsNs = tsNs;
    if (fileIndex < inputs.size()) {
        target.file = captureFileName(inputs[fileIndex].path);
    }
    return target;
}

}  // namespace

PacketNoteTarget packetNoteTarget(const AnalysisEngine& engine, const std::vector<InputSummary>& inputs, uint32_t frame) {
    const PacketIndex& index = engine.packets();
    const size_t position = index.positionOfFrame(frame);
    if (position >= index.size()) {
        return targetOf(inputs, frame, 0, 0);
    }
    const IndexedPacket packet = index.at(position);
    return targetOf(inputs, frame, packet.tsNs, packet.fileIndex);
}

void showCaptureComments(NoteSet& notes, const AnalysisEngine& engine, const std::vector<InputSummary>& inputs) {
    std::vector<PacketNoteTarget> targets;
    std::vector<std::string> texts;
    for (const PacketComment& comment : engine.packetComments()) {
        targets.push_back(targetOf(inputs, comment.frame, comment.tsNs, comment.fileIndex));
        texts.push_back(comment.text);
    }
    notes.setCaptureComments(targets, texts);
}

}  // namespace tcpscope
