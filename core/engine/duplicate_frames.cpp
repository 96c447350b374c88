#include "engine/duplicate_frames.hpp"

#include <absl/hash/hash.h>

#include <cstring>

namespace tcpscope {

namespace {

uint64_t addressWord(const Endpoint& endpoint, int half) {
    uint64_t word = 0;
    std::memcpy(&word, endpoint.address.bytes.data() + 8 * half, sizeof word);
    return word;
}

}  // namespace

DuplicateFrames::DuplicateFrames() : slots_(kSlots) {}

DuplicateFrames::Key DuplicateFrames::keyOf(const TcpSegment& segment) {
    uint32_t sackLeft = 0;
    uint32_t sackRight = 0;
    if (segment.options.sackCount > 0) {
        sackLeft = segment.options.sack[0].left;
        sackRight = segment.options.sack[0].right;
    }
    const TcpOptions& options = segment.options;
    return Key{
        addressWord(segment.source, 0),
        addressWord(segment.source, 1),
        addressWord(segment.destination, 0),
        addressWord(segment.destination, 1),
        uint64_t{segment.source.port} << 48 | uint64_t{segment.destination.port} << 32 | segment.seq,
        uint64_t{segment.ack} << 32 | segment.payloadLength,
        uint64_t{options.tsVal} << 32 | options.tsEcr,
        uint64_t{sackLeft} << 32 | sackRight,
        uint64_t{segment.flags} << 48 | uint64_t{segment.window} << 32 | uint64_t{segment.ipId} << 16 |
            uint64_t{options.hasTimestamp},
    };
}

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

size_t DuplicateFrames::slotOf(uint32_t hash32, uint32_t entry) const {
    size_t slot = homeOf(hash32);
    while (slots_[slot].entryPlusOne != entry + 1) {
        slot = (slot + 1) & (kSlots - 1);
    }
    return slot;
}

void DuplicateFrames::vacate(size_t slot) {
    size_t hole = slot;
    for (size_t next = (hole + 1) & (kSlots - 1); slots_[next].entryPlusOne != 0; next = (next + 1) & (kSlots - 1)) {
        // A slot moves into the hole unless its probe run starts after the hole (it would no longer
        // be found from its home).
        const size_t fromHome = (next - homeOf(slots_[next].hash32)) & (kSlots - 1);
        const size_t fromHole = (next - hole) & (kSlots - 1);
        if (fromHome >= fromHole) {
            slots_[hole] = slots_[next];
            hole = next;
        }
    }
    slots_[hole] = Slot{};
}

bool DuplicateFrames::isCopy(const TcpSegment& segment, int64_t tsNs) {
    if (tsNs < lastTsNs_) {
        ++epoch_;  // every step back counts, whatever segment shows it
    }
    lastTsNs_ = tsNs;
    const uint64_t index = segments_++;
    recent_[index % kRecent] = Direction{segment.source, segment.destination};
    // Segments without data repeat by design (duplicate ACKs, a RST for every segment that reaches
    // a closed socket): only an IP ID tells a copy of one from the next. Only the IP ID or the TCP
    // timestamps tell a copy of data from a retransmission of the same bytes.
    const bool distinguishable = segment.ipId != 0 || (segment.options.hasTimestamp && segment.payloadLength > 0);
    // Data that nothing tells apart is a copy only by time and silence (see the class comment); a
    // segment without data and without an IP ID never is one.
    if (!distinguishable && segment.payloadLength == 0) {
        return false;
    }
    const Key key = keyOf(segment);
    const auto hash32 = static_cast<uint32_t>(absl::Hash<Key>{}(key) >> 32);
    for (size_t slot = homeOf(hash32); slots_[slot].entryPlusOne != 0; slot = (slot + 1) & (kSlots - 1)) {
        if (slots_[slot].hash32 != hash32) {
            continue;
        }
        Entry& found = entries_[slots_[slot].entryPlusOne - 1];
        if (found.key != key) {
            continue;
        }
        const int64_t apartNs = tsNs >= found.tsNs ? tsNs - found.tsNs : found.tsNs - tsNs;
        // The copy's time is not remembered: a third copy is compared with the first.
        if (distinguishable && (apartNs <= kDistinctWindowNs || found.epoch != epoch_)) {
            return true;
        }
        if (!distinguishable && apartNs <= kIndistinctWindowNs && !peerSpokeSince(segment, found.index)) {
            return true;
        }
        // The same fields again later: a packet of its own.
        found.tsNs = tsNs;
        found.index = index;
        found.epoch = epoch_;
        return false;
    }
    uint32_t entry = 0;
    if (entries_.size() < kRemembered) {
        entry = static_cast<uint32_t>(entries_.size());
        entries_.emplace_back();
    } else {
        entry = static_cast<uint32_t>(next_);
        vacate(slotOf(entries_[entry].hash32, entry));  // the oldest is forgotten
        next_ = (next_ + 1) % kRemembered;
    }
    entries_[entry] = Entry{key, tsNs, index, epoch_, hash32};
    size_t slot = homeOf(hash32);
    while (slots_[slot].entryPlusOne != 0) {
        slot = (slot + 1) & (kSlots - 1);
    }
    slots_[slot] = Slot{hash32, entry + 1};
    return false;
}

}  // namespace tcpscope
