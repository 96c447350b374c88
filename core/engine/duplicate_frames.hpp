#pragma once
#include <absl/container/flat_hash_map.h>

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

    /// True if `segment`, captured at `tsNs`, is a copy of one seen before; otherwise remembers it.
    bool isCopy(const TcpSegment& segment, int64_t tsNs);

private:
    struct Key {
        Endpoint source;
        Endpoint destination;
        uint32_t seq = 0;
        uint32_t ack = 0;
        uint32_t payloadLength = 0;
        uint32_t tsVal = 0;
        uint32_t tsEcr = 0;
        uint16_t flags = 0;
        uint16_t window = 0;
        uint32_t sackLeft = 0;
        uint32_t sackRight = 0;
        uint16_t ipId = 0;
        bool hasTimestamp = false;

        bool operator==(const Key&) const = default;
        template <typename H>
        friend H AbslHashValue(H state, const Key& key) {
            return H::combine(std::move(state), key.source, key.destination, key.seq, key.ack, key.payloadLength,
                              key.tsVal, key.tsEcr, key.sackLeft, key.sackRight, key.flags, key.window, key.ipId,
                              key.hasTimestamp);
        }
    };

    struct Seen {
        int64_t tsNs = 0;
        uint64_t index = 0;  // of the segment (its place among all segments seen)
        uint32_t epoch = 0;  // how often time had gone backwards before it
    };

    // Where a recent segment went.
    struct Direction {
        Endpoint source;
        Endpoint destination;
    };

    // Whether the destination of `segment` sent a segment to its source after the segment numbered
    // `since`; true as well when the recent segments no longer reach back that far (a copy is only
    // what surely is one).
    [[nodiscard]] bool peerSpokeSince(const TcpSegment& segment, uint64_t since) const;

    absl::flat_hash_map<Key, Seen> seen_;
    std::vector<Key> order_;  // ring of the remembered keys, oldest at next_
    size_t next_ = 0;
    std::array<Direction, kRecent> recent_{};  // by segment index modulo kRecent
    uint64_t segments_ = 0;                    // segments seen, this one included
    int64_t lastTsNs_ = INT64_MIN;
    uint32_t epoch_ = 0;
};

}  // namespace tcpscope
