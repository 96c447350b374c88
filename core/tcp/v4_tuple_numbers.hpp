#pragma once
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
class V4TupleNumbers {
public:
    /// The number of `tuple`, which becomes `next` if the tuple has none yet.
    uint32_t numberOf(const V4Tuple& tuple, uint32_t next);
    /// Asks for the cache line numberOf(tuple, ...) reads first.
    void prefetch(const V4Tuple& tuple) const {
        if (!slots_.empty()) {
            __builtin_prefetch(&slots_[homeOf(tuple)]);
        }
    }
    /// Tuples numbered so far.
    [[nodiscard]] size_t size() const { return count_; }
    /// Bytes held by the table.
    [[nodiscard]] size_t bytesHeld() const { return slots_.capacity() * sizeof(Slot); }

private:
    static constexpr uint32_t kEmpty = UINT32_MAX;
    struct Slot {
        V4Tuple tuple;
        uint32_t number = kEmpty;
    };

    // The slot where `tuple`'s probe starts: the hash's upper half scaled to the table (no division).
    [[nodiscard]] size_t homeOf(const V4Tuple& tuple) const;
    void resize(size_t slotCount);

    std::vector<Slot> slots_;
    size_t count_ = 0;
};

}  // namespace tcpscope
