#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "capture/capture_reader.hpp"
#include "decode/decoded_packet.hpp"

namespace tcpscope::filter {

/// What a filter reads of a frame's own record, which the packet index does not keep: the
/// frame's lengths, the time since the frame before it (any frame), the IP header's TTL and ID and
/// the TCP options. Read again from the file by a FrameRecordCursor, only for a filter that asks.
struct FrameRecord {
    uint32_t frame = 0;
    uint32_t capturedLength = 0;
    uint32_t originalLength = 0;
    int64_t deltaNs = 0;  ///< since the frame before it in the file (0 for the first)
    bool tcp = false;     ///< `segment` holds the frame's TCP segment
    TcpSegment segment;
};

/// Reads one capture file again, frame by frame, for the frames of the packets a filter tests
/// (asked in increasing frame order, as a listing goes).
class FrameRecordCursor {
public:
    /// Opens `path`. Throws CaptureError if it cannot be opened or is no capture.
    explicit FrameRecordCursor(const std::string& path);

    /// The record of frame `frame` (1-based, every frame of the file counts), or null if the file
    /// ends before it or a frame before it was asked after it.
    const FrameRecord* seek(uint32_t frame);

private:
    std::unique_ptr<CaptureReader> reader_;
    FrameRecord current_;
    int64_t previousTsNs_ = 0;
    bool ended_ = false;
};

}  // namespace tcpscope::filter
