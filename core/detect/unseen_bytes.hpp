#pragma once
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <cstdint>

#include "detect/support/small_vector.hpp"

namespace tcpscope {

/// How much of the data the receivers acknowledged the capture never saw, in every connection,
/// including those whose start it missed: the holes in a side's sequence space (a segment beyond
/// the highest byte seen, the bytes between never captured, not even later as a retransmission)
/// that the peer then acknowledged, and what the peer acknowledged beyond the highest byte seen.
/// Counted from the first byte captured of each side, so data sent before the capture began is no
/// hole. A hole counts once the peer's ACK covers it (the receiver had those bytes: the capture
/// dropped them, not the path), or at the end of the input.
/// CaptureQualityDetector owns it and keeps each side's highest byte seen; only the sides with a
/// hole, or an ACK beyond that byte, have a record here (by connection id * 2 + side), so the cost
/// of a capture that misses nothing is one test per segment.
class UnseenBytes {
public:
    /// Data [seq, end) of a side whose highest byte seen so far ends at `highestEnd` (before this
    /// segment); returns whether the side has a record now.
    bool onData(uint32_t side, bool hasRecord, uint32_t highestEnd, uint32_t seq, uint32_t end);
    /// The peer acknowledged `ack` of a side whose highest byte seen ends at `highestEnd`, in a
    /// connection whose handshake the capture holds (`started`) or not; returns whether the side has
    /// a record now.
    bool onAck(uint32_t side, bool hasRecord, uint32_t highestEnd, uint32_t ack, bool started);
    /// The side's data ended (its connection retired, or the input ended) with `highestEnd`: what
    /// its record adds up to is counted, and the record released.
    void settle(uint32_t side, uint32_t highestEnd, bool started);

    /// Bytes acknowledged by the receivers and never captured, and in how many gaps.
    [[nodiscard]] uint64_t missingBytes() const { return missingBytes_; }
    [[nodiscard]] uint64_t gaps() const { return gaps_; }
    /// Of them, those in connections whose handshake the capture holds, and in how many connections.
    [[nodiscard]] uint64_t missingBytesInStarted() const { return startedBytes_; }
    [[nodiscard]] uint64_t gapsInStarted() const { return startedGaps_; }
    [[nodiscard]] uint64_t startedConnections() const { return startedConnections_.size(); }

private:
    struct Hole {
        uint32_t from = 0;
        uint32_t to = 0;
    };
    // Holes a side keeps at once before the two nearest are merged (the bytes between them, which
    // were seen, then count as missing: a bound on memory for a capture full of holes).
    static constexpr size_t kMaxHoles = 16;

    struct Record {
        SmallVector<Hole, 2> holes;  // in sequence order
        uint32_t acked = 0;          // the highest ACK of the peer, once ackSeen
        bool ackSeen = false;
    };

    // Counts the holes of `record` the peer acknowledged and takes them out.
    void countAcknowledged(uint32_t side, Record& record, bool started);
    void count(uint32_t side, uint64_t bytes, bool started);
    static void addHole(Record& record, uint32_t from, uint32_t to);
    // Takes [from, to) out of the holes: bytes captured late (a retransmission, reordering).
    static void fill(Record& record, uint32_t from, uint32_t to);

    absl::flat_hash_map<uint32_t, Record> records_;
    uint64_t missingBytes_ = 0;
    uint64_t gaps_ = 0;
    uint64_t startedBytes_ = 0;
    uint64_t startedGaps_ = 0;
    absl::flat_hash_set<uint32_t> startedConnections_;
};

}  // namespace tcpscope
