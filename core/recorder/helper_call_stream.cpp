#include "recorder/helper_call_stream.hpp"

#include "live/capture_file_writer.hpp"
#include "recorded/call_block.hpp"
#include "recorded/connection_calls.hpp"

namespace tcpscope {

void HelperCallStream::take(const CustomBlock& block) {
    if (block.enterpriseNumber != kTcpscopePen) {
        return;
    }
    {
        const std::lock_guard lock(mutex_);
        std::string blockProblem;
        if (!readRecordBlock(block.data, calls_, blockProblem) && problem_.empty()) {
            problem_ = blockProblem;
        }
    }
    pendingBlocks_.emplace_back(block.data.begin(), block.data.end());
}

void HelperCallStream::annotate(RawPacket& packet) {
    // The helper wrote the process (and the direction) into the packet; the reader read them back.
    if (!packet.comment.empty()) {
        ++packetsWithProcess_;
    }
}

void HelperCallStream::writeInto(CaptureFileWriter* file) {
    if (file != nullptr) {
        for (const std::vector<uint8_t>& data : pendingBlocks_) {
            file->writeCustomBlock(kCustomBlockType, kTcpscopePen, data);
        }
    }
    pendingBlocks_.clear();
}

void HelperCallStream::finishInto(CaptureFileWriter* file) {
    // The stream has ended (the helper wrote its last calls, its clock and its summary before it).
    writeInto(file);
}

RecordedCalls HelperCallStream::calls() const {
    const std::lock_guard lock(mutex_);
    return calls_;
}

RecordedCalls HelperCallStream::callsOf(std::span<const ConnectionEnds> connections) const {
    const std::lock_guard lock(mutex_);
    return callsOfConnections(calls_, connections);
}

std::string HelperCallStream::problem() const {
    const std::lock_guard lock(mutex_);
    return problem_;
}

}  // namespace tcpscope
