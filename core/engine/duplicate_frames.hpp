#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "decode/decoded_packet.hpp"

namespace tcpscope {

/// Recognises a TCP segment that the capture holds twice or more: the same packet seen on several
/// interfaces (`tcpdump -i any` on a bridge or a veth pair, a bond and its ports, two capture points
/// merged into one file) or a file that holds its trace twice. Two frames are the same packet when
/// their 4-tuple, sequence and acknowledgement numbers, flags, window, payload length, IPv4
/// identification, TCP timestamps and first SACK block are all equal, and
/// - the IP ID or the TCP timestamps tell packets apart (a retransmission gets a new IP ID and
///   timestamp), and they are within kDistinctWindowNs of each other (one path delay: the same
///   packet seen before and after a hop) or the capture's time went backwards between them (the
///   trace repeated); a segment without data only when its IP ID tells it apart: duplicate ACKs,
///   and the RSTs a closed socket sends for every segment that reaches it, are alike by design;
/// - or, for data that neither tells apart (no IP ID, no timestamps: Windows over IPv6, say), they
///   are within kIndistinctWindowNs of each other and the peer sent nothing in between (among the
///   last kRecent segments): TCP sends the same data again only on a timer (a tail-loss probe, 2 ms
///   at the soonest on Linux; a retransmission timeout, 200 ms) or in answer to its peer (duplicate
///   ACKs, SACKs). Segments without data and without an IP ID are never taken for copies: a closed
///   socket's RSTs and a receiver's duplicate ACKs answer segments that arrived together, and come
///   as close together and as alike as copies do.
/// Every copy, the third and fourth too, is compared with the first one seen.
class DuplicateFrames {
public:
    static constexpr int64_t kDistinctWindowNs = 200'000'000;
    static constexpr int64_t kIndistinctWindowNs = 1'000'000;
    /// The last segments whose direction is remembered, to tell whether a peer sent in between.
    static constexpr size_t kRecent = 64;
    /// Segments remembered: a copy further back than this is not recognised.
    static constexpr size_t kRemembered = 4096;

    DuplicateFrames();

    /// True if `segment`, captured at `tsNs`, is a copy of one seen before; otherwise remembers it.
    bool isCopy(const TcpSegment& segment, int64_t tsNs);

private:
    // The fields two copies share (see the class comment), packed into words without loss: 4-tuple,
    // sequence and acknowledgement numbers, payload length, TCP timestamps, first SACK block, flags,
    // window, IP ID and whether there are timestamps. Equal words, equal fields.
    using Key = std::array<uint64_t, 9>;

    // A remembered segment: its fields, where and when it was seen.
    struct Entry {
        Key key{};
        int64_t tsNs = 0;
        uint64_t index = 0;   // of the segment (its place among all segments seen)
        uint32_t epoch = 0;   // how often time had gone backwards before it
        uint32_t hash32 = 0;  // the upper half of the key's hash (see Slot)
    };

    // A place in the index over entries_ (open addressing, linear probing): the upper half of the
    // key's hash, whose top bits are the slot where probing for the key starts, and the entry.
    struct Slot {
        uint32_t hash32 = 0;
        uint32_t entryPlusOne = 0;  // 0: an empty slot
    };
    // Twice the entries: probes stay short, and a key that is not there is told by one or two slots
    // (hash32 differs) without reading an entry.
    static constexpr size_t kSlotBits = 13;
    static constexpr size_t kSlots = size_t{1} << kSlotBits;
    static_assert(kSlots >= 2 * kRemembered);

    // Where a recent segment went.
    struct Direction {
        Endpoint source;
        Endpoint destination;
    };

    [[nodiscard]] static Key keyOf(const TcpSegment& segment);
    [[nodiscard]] static size_t homeOf(uint32_t hash32) { return hash32 >> (32 - kSlotBits); }
    // The slot that holds `entry`, whose key has hash `hash32`.
    [[nodiscard]] size_t slotOf(uint32_t hash32, uint32_t entry) const;
    // Empties slot `slot`, moving later slots of the same probe run back (no tombstones).
    void vacate(size_t slot);

    // Whether the destination of `segment` sent a segment to its source after the segment numbered
    // `since`; true as well when the recent segments no longer reach back that far (a copy is only
    // what surely is one).
    [[nodiscard]] bool peerSpokeSince(const TcpSegment& segment, uint64_t since) const;

    // The last kRemembered segments that were no copies and whose fields differ, in a ring: the
    // oldest at next_ once it is full. A segment whose fields are remembered updates that entry.
    std::vector<Entry> entries_;
    size_t next_ = 0;
    std::vector<Slot> slots_;
    std::array<Direction, kRecent> recent_{};  // by segment index modulo kRecent
    uint64_t segments_ = 0;                    // segments seen, this one included
    int64_t lastTsNs_ = INT64_MIN;
    uint32_t epoch_ = 0;
};

}  // namespace tcpscope
