#include "points/point_segments.hpp"

#include <algorithm>
#include <memory>

#include "capture/capture_reader.hpp"
#include "decode/packet_decoder.hpp"

namespace tcpscope {

SegmentIdentity identityOf(const TcpSegment& segment) {
    SegmentIdentity id;
    id.flow = FlowKey::fromSegment(segment.source, segment.destination, id.sourceIsLow);
    id.seq = segment.seq;
    id.ack = segment.ack;
    id.payloadLength = segment.payloadLength;
    id.flags = segment.flags;
    id.ipId = segment.ipId;
    id.hasTimestamp = segment.options.hasTimestamp;
    id.tsVal = segment.options.tsVal;
    return id;
}

PointSegments readPointSegments(const CapturePoint& point, LoadProgress* progress, const StopToken* stop) {
    PointSegments result;
    for (const std::string& path : point.files) {
        const std::unique_ptr<CaptureReader> reader = CaptureReader::open(path);
        RawPacket packet;
        TcpSegment segment;
        uint64_t counted = 0;
        while ((stop == nullptr || !stop->stopRequested()) && reader->next(packet)) {
            ++result.frames;
            if (progress != nullptr && (result.frames & 0x3ff) == 0) {
                progress->bytesDone += reader->bytesConsumed() - counted;
                counted = reader->bytesConsumed();
            }
            if (decodePacket(packet, segment) != DecodeStatus::Tcp) {
                continue;
            }
            SeenSegment seen;
            seen.tsNs = packet.tsNs;
            seen.ttl = segment.ttl;
            seen.id = identityOf(segment);
            result.segments.push_back(seen);
        }
        if (progress != nullptr) {
            progress->bytesDone += reader->bytesConsumed() - counted;
        }
    }
    // Several files of one point are merged in time order, as one capture (ties keep file order).
    std::stable_sort(result.segments.begin(), result.segments.end(),
                     [](const SeenSegment& a, const SeenSegment& b) { return a.tsNs < b.tsNs; });
    return result;
}

}  // namespace tcpscope
