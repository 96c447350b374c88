#include "engine/duplicate_frames.hpp"

namespace tcpscope {

bool DuplicateFrames::peerSpokeSince(const TcpSegment& segment, uint64_t since) const {
    if (segments_ - since >= kRecent) {
        return true;
    }
    for (uint64_t index = since + 1; index < segments_; ++index) {
        const Direction& sent = recent_[index % kRecent];
        if (sent.source == segment.destination && sent.destination == segment.source) {
            return true;
        }
    }
    return false;
}

bool DuplicateFrames::isCopy(const TcpSegment& segment, int64_t tsNs) {
    if (tsNs < lastTsNs_) {
        ++epoch_;  // every step back counts, whatever segment shows it
    }
    lastTsNs_ = tsNs;
    const uint64_t index = segments_++;
    recent_[index % kRecent] = Direction{segment.source, segment.destination};
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
    // a closed socket): only an IP ID tells a copy of one from the next. Only the IP ID or the TCP
    // timestamps tell a copy of data from a retransmission of the same bytes.
    const bool distinguishable = key.ipId != 0 || (key.hasTimestamp && segment.payloadLength > 0);
    // Data that nothing tells apart is a copy only by time and silence (see the class comment); a
    // segment without data and without an IP ID never is one.
    if (!distinguishable && segment.payloadLength == 0) {
        return false;
    }
    if (const auto found = seen_.find(key); found != seen_.end()) {
        const int64_t apartNs = tsNs >= found->second.tsNs ? tsNs - found->second.tsNs : found->second.tsNs - tsNs;
        // The copy's time is not remembered: a third copy is compared with the first.
        if (distinguishable && (apartNs <= kDistinctWindowNs || found->second.epoch != epoch_)) {
            return true;
        }
        if (!distinguishable && apartNs <= kIndistinctWindowNs && !peerSpokeSince(segment, found->second.index)) {
            return true;
        }
        found->second = Seen{tsNs, index, epoch_};  // the same fields again later: a packet of its own
        return false;
    }
    if (order_.size() < kRemembered) {
        order_.push_back(key);
    } else {
        seen_.erase(order_[next_]);
        order_[next_] = key;
        next_ = (next_ + 1) % kRemembered;
    }
    seen_.emplace(key, Seen{tsNs, index, epoch_});
    return false;
}

}  // namespace tcpscope
