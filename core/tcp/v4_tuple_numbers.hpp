#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tcp/chunked_store.hpp"

namespace tcpscope {

/// An IPv4 4-tuple in 12 bytes (a FlowKey takes 36), its lower endpoint (address, then port) first.
struct V4Tuple {
    uint32_t lowAddress = 0;
    uint32_t highAddress = 0;
    uint32_t ports = 0;  ///< low endpoint's port << 16 | high endpoint's port
    bool operator==(const V4Tuple&) const = default;
};

/// The numbers of IPv4 tuples: an open-addressing table of 8-byte slots (32 bits of the tuple's
/// hash and its number), probed linearly, grown by half when three quarters of it are used, and the
/// tuples themselves by number beside it in a ChunkedStore (in the spill file while one is on). A
/// slot whose hash bits match reads its tuple there: for a tuple already numbered (nearly every
/// packet's), that is the tuple of a connection just read; a new tuple reads none. With the tuples
/// in the slots (16 bytes), W1 at 100 M packets held 217 MB of slots on the heap for 9.9 M tuples.
/// The table is cut into 64 segments by the hash's top bits, each grown on its own: growing holds
/// the old and the new slots at once, a 64th of the table at most.
class V4TupleNumbers {
public:
    /// The number of `tuple`, which becomes `next` if the tuple has none yet.
    uint32_t numberOf(const V4Tuple& tuple, uint32_t next);
    /// Asks for the cache line numberOf(tuple, ...) reads first.
    void prefetch(const V4Tuple& tuple) const {
        const uint64_t hash = hashOf(tuple);
        const Segment& segment = segments_[segmentOf(hash)];
        if (!segment.table.empty()) {
            __builtin_prefetch(&segment.table[homeOf(belowOf(hash), segment.table.size())]);
        }
    }
    /// Tuples numbered so far.
    [[nodiscard]] size_t size() const { return count_; }
    /// Bytes held by the table.
    [[nodiscard]] size_t bytesHeld() const;

private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    static constexpr unsigned kSegmentBits = 6;
    // `below`: the 32 bits of the hash below the segment's, which place the slot in its segment
    // (homeOf), so that growing a segment reads no tuple.
    struct Slot {
        uint32_t below = 0;
        uint32_t number = kEmpty;
    };
    struct Segment {
        std::vector<Slot> table;
        size_t count = 0;
    };

    [[nodiscard]] static uint64_t hashOf(const V4Tuple& tuple);
    // The segment of a hash: its top bits.
    [[nodiscard]] static size_t segmentOf(uint64_t hash) { return static_cast<size_t>(hash >> (64 - kSegmentBits)); }
    // The 32 bits of the hash below the segment's.
    [[nodiscard]] static uint32_t belowOf(uint64_t hash) {
        return static_cast<uint32_t>((hash >> (32 - kSegmentBits)) & 0xffffffffu);
    }
    // The slot of a segment of `slotCount` where the probe starts: belowOf(hash) scaled to the
    // segment (no division).
    [[nodiscard]] static size_t homeOf(uint32_t below, size_t slotCount) {
        return static_cast<size_t>((uint64_t{below} * slotCount) >> 32);
    }
    static void resize(Segment& segment, size_t slotCount);

    std::array<Segment, size_t{1} << kSegmentBits> segments_;
    ChunkedStore<V4Tuple, 4096> tuples_;  // [number]: a number given to an IPv6 tuple stays a zero tuple
    size_t count_ = 0;
};

}  // namespace tcpscope
