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

PointSegments readPointSegments(const CapturePoint& point) {
    PointSegments result;
    for (const std::string& path : point.files) {
        const std::unique_ptr<CaptureReader> reader = CaptureReader::open(path);
        RawPacket packet;
        TcpSegment segment;
        while (reader->next(packet)) {
            ++result.frames;
            if (decodePacket(packet, segment) != DecodeStatus::Tcp) {
                continue;
            }
            SeenSegment seen;
            seen.tsNs = packet.tsNs;
            seen.ttl = segment.ttl;
            seen.id = identityOf(segment);
            result.segments.push_back(seen);
        }
    }
    // Several files of one point are merged in time order, as one capture (ties keep file order).
    std::stable_sort(result.segments.begin(), result.segments.end(),
                     [](const SeenSegment& a, const SeenSegment& b) { return a.tsNs < b.tsNs; });
    return result;
}

}  // namespace tcpscope
