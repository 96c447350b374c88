#include "filter/frame_record.hpp"

#include "decode/packet_decoder.hpp"

namespace tcpscope::filter {

FrameRecordCursor::FrameRecordCursor(const std::string& path) : reader_(CaptureReader::open(path)) {}

const FrameRecord* FrameRecordCursor::seek(uint32_t frame) {
    while (!ended_ && current_.frame < frame) {
        RawPacket raw;
        if (!reader_->next(raw)) {
            ended_ = true;
            break;
        }
        current_.frame += 1;
        current_.capturedLength = raw.capturedLength;
        current_.originalLength = raw.originalLength;
        current_.deltaNs = current_.frame == 1 ? 0 : raw.tsNs - previousTsNs_;
        previousTsNs_ = raw.tsNs;
        current_.segment = TcpSegment{};
        current_.tcp = decodePacket(raw, current_.segment) == DecodeStatus::Tcp;
    }
    return current_.frame == frame ? &current_ : nullptr;
}

}  // namespace tcpscope::filter
