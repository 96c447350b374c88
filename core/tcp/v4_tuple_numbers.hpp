#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcpscope {

/// An IPv4 4-tuple in 12 bytes (a FlowKey takes 36), its lower endpoint (address, then port) first.
struct V4Tuple {
    uint32_t lowAddress = 0;
    uint32_t highAddress = 0;
    uint32_t ports = 0;  ///< low endpoint's port << 16 | high endpoint's port
    bool operator==(const V4Tuple&) const = default;
};

/// The numbers of IPv4 tuples: an open-addressing table of 16-byte slots (a tuple and its number),
/// probed linearly, grown by half when three quarters of it are used. A power-of-two table (absl's)
/// of a million tuples has 2^21 slots of 17 bytes, 34 MiB, half of them empty; this one 1.5 million
/// of 16 bytes, 23 MiB, and a lookup reads the line of its slot (absl's a control byte's line too).
/// The table is cut into 64 segments by the hash's top bits, each grown on its own: growing holds
/// the old and the new slots at once, and for one table of 9.9 M tuples (W1 at 100 M packets) its
/// last growth held 196 + 294 MB; a segment's, a 64th of that.
class V4TupleNumbers {
public:
    /// The number of `tuple`, which becomes `next` if the tuple has none yet.
    uint32_t numberOf(const V4Tuple& tuple, uint32_t next);
    /// Asks for the cache line numberOf(tuple, ...) reads first.
    void prefetch(const V4Tuple& tuple) const {
        const uint64_t hash = hashOf(tuple);
        const Segment& segment = segments_[segmentOf(hash)];
        if (!segment.table.empty()) {
            __builtin_prefetch(&segment.table[homeOf(hash, segment.table.size())]);
        }
    }
    /// Tuples numbered so far.
    [[nodiscard]] size_t size() const { return count_; }
    /// Bytes held by the table.
    [[nodiscard]] size_t bytesHeld() const;

private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    static constexpr unsigned kSegmentBits = 6;
    struct Slot {
        V4Tuple tuple;
        uint32_t number = kEmpty;
    };
    struct Segment {
        std::vector<Slot> table;
        size_t count = 0;
    };

    [[nodiscard]] static uint64_t hashOf(const V4Tuple& tuple);
    // The segment of a hash: its top bits.
    [[nodiscard]] static size_t segmentOf(uint64_t hash) { return static_cast<size_t>(hash >> (64 - kSegmentBits)); }
    // The slot of a segment of `slotCount` where the probe starts: the 32 bits below the segment's
    // scaled to the segment (no division).
    [[nodiscard]] static size_t homeOf(uint64_t hash, size_t slotCount) {
        const uint64_t below = (hash >> (32 - kSegmentBits)) & 0xffffffffu;
        return static_cast<size_t>((below * slotCount) >> 32);
    }
    static void resize(Segment& segment, size_t slotCount);

    std::array<Segment, size_t{1} << kSegmentBits> segments_;
    size_t count_ = 0;
};

}  // namespace tcpscope
