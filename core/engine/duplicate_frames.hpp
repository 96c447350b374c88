#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <vector>

#include "decode/decoded_packet.hpp"

namespace tcpscope {

/// Recognises a TCP segment that the capture holds twice: the same packet seen on two interfaces
/// (`tcpdump -i any` on a bridge or a veth pair, two capture points merged into one file) or a file
/// that holds its trace twice. Two frames are the same packet when their 4-tuple, sequence and
/// acknowledgement numbers, flags, window, payload length, IPv4 identification, TCP timestamps and
/// first SACK block are all equal, the IP ID or the TCP timestamps tell packets apart (a
/// retransmission gets a new IP ID and timestamp; without either, a copy cannot be told from a
/// retransmission of the same bytes, and nothing is left out), and they are within
/// kDistinctWindowNs of each other (one path delay: the same packet seen before and after a hop)
/// or the capture's time went backwards between them (the trace repeated). A segment without data
/// is taken for a copy only when its IP ID tells it apart: duplicate ACKs, and the RSTs a closed
/// socket sends for every segment that reaches it, are alike by design.
class DuplicateFrames {
public:
    static constexpr int64_t kDistinctWindowNs = 200'000'000;
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
        uint32_t epoch = 0;  // how often time had gone backwards before it
    };

    absl::flat_hash_map<Key, Seen> seen_;
    std::vector<Key> order_;  // ring of the remembered keys, oldest at next_
    size_t next_ = 0;
    int64_t lastTsNs_ = INT64_MIN;
    uint32_t epoch_ = 0;
};

}  // namespace tcpscope
