#pragma once
#include <cstdint>
#include <vector>

#include "decode/decoded_packet.hpp"
#include "engine/load_progress.hpp"
#include "points/capture_point.hpp"
#include "tcp/flow_key.hpp"

namespace tcpscope {

/// What identifies one TCP segment on the wire, whichever point saw it: its 4-tuple and direction,
/// sequence and acknowledgement numbers, payload length, flags, and the IP ID and TCP timestamp
/// value that tell apart segments otherwise alike (pure ACKs, retransmissions).
struct SegmentIdentity {
    FlowKey flow;
    bool sourceIsLow = true;
    uint32_t seq = 0;
    uint32_t ack = 0;
    uint32_t payloadLength = 0;
    uint16_t flags = 0;
    uint16_t ipId = 0;
    bool hasTimestamp = false;
    uint32_t tsVal = 0;

    bool operator==(const SegmentIdentity&) const = default;

    template <typename H>
    friend H AbslHashValue(H state, const SegmentIdentity& id) {
        return H::combine(std::move(state), id.flow, id.sourceIsLow, id.seq, id.ack, id.payloadLength, id.flags,
                          id.ipId, id.hasTimestamp, id.tsVal);
    }
};

/// The identity of a decoded segment.
SegmentIdentity identityOf(const TcpSegment& segment);

/// One TCP segment as one capture point saw it, on that point's clock.
struct SeenSegment {
    int64_t tsNs = 0;
    SegmentIdentity id;
    uint8_t ttl = 0;
};

/// Every TCP segment of one capture point, in time order, and how many frames its files held.
struct PointSegments {
    std::vector<SeenSegment> segments;
    uint64_t frames = 0;
};

/// Reads and decodes the files of `point` (merged in time order). Throws CaptureError if a file
/// cannot be opened; a problem later in a file ends that file (the analysis reports it). Adds the
/// bytes read to `progress`; stops reading when `stop` asks.
PointSegments readPointSegments(const CapturePoint& point, LoadProgress* progress = nullptr,
                                const StopToken* stop = nullptr);

}  // namespace tcpscope
