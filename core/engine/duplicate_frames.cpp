#include "engine/duplicate_frames.hpp"

namespace tcpscope {

bool DuplicateFrames::isCopy(const TcpSegment& segment, int64_t tsNs) {
    if (tsNs < lastTsNs_) {
        ++epoch_;  // every step back counts, whatever segment shows it
    }
    lastTsNs_ = tsNs;
    Key key;
    key.source = segment.source;
    key.destination = segment.destination;
    key.seq = segment.seq;
    key.ack = segment.ack;
    key.payloadLength = segment.payloadLength;
    key.hasTimestamp = segment.options.hasTimestamp;
    key.tsVal = segment.options.tsVal;
    key.tsEcr = segment.options.tsEcr;
    key.flags = segment.flags;
    key.window = segment.window;
    key.ipId = segment.ipId;
    if (segment.options.sackCount > 0) {
        key.sackLeft = segment.options.sack[0].left;
        key.sackRight = segment.options.sack[0].right;
    }
    // Segments without data repeat by design (duplicate ACKs, a RST for every segment that reaches
    // a closed socket): only an IP ID tells a copy of one from the next.
    if (segment.payloadLength == 0 && key.ipId == 0) {
        return false;
    }
    // Only the IP ID or the TCP timestamps tell a copy from a retransmission of the same bytes.
    const bool distinguishable = key.ipId != 0 || key.hasTimestamp;
    if (!distinguishable) {
        return false;
    }
    if (const auto found = seen_.find(key); found != seen_.end()) {
        const int64_t apartNs = tsNs >= found->second.tsNs ? tsNs - found->second.tsNs : found->second.tsNs - tsNs;
        if (apartNs <= kDistinctWindowNs || found->second.epoch != epoch_) {
            return true;  // the copy's time is not remembered: a third copy is compared with the first
        }
        found->second = Seen{tsNs, epoch_};  // the same fields again later: a packet of its own
        return false;
    }
    if (order_.size() < kRemembered) {
        order_.push_back(key);
    } else {
        seen_.erase(order_[next_]);
        order_[next_] = key;
        next_ = (next_ + 1) % kRemembered;
    }
    seen_.emplace(key, Seen{tsNs, epoch_});
    return false;
}

}  // namespace tcpscope
