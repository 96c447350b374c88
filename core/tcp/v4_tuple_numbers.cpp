#include "tcp/v4_tuple_numbers.hpp"

#include <absl/hash/hash.h>

#include <algorithm>
#include <utility>

namespace tcpscope {

uint64_t V4TupleNumbers::hashOf(const V4Tuple& tuple) {
    return absl::Hash<std::pair<uint64_t, uint32_t>>{}(
        {(uint64_t{tuple.lowAddress} << 32) | tuple.highAddress, tuple.ports});
}

size_t V4TupleNumbers::bytesHeld() const {
    size_t held = 0;
    for (const Segment& segment : segments_) {
        held += segment.table.capacity() * sizeof(Slot);
    }
    return held + tuples_.bytesHeld();
}

uint32_t V4TupleNumbers::numberOf(const V4Tuple& tuple, uint32_t next) {
    const uint64_t hash = hashOf(tuple);
    Segment& segment = segments_[segmentOf(hash)];
    // At most three quarters full: a tuple not there yet is found missing within a few lines.
    if (4 * (segment.count + 1) > 3 * segment.table.size()) {
        constexpr size_t kFirstSlots = 64;
        resize(segment, std::max(kFirstSlots, segment.table.size() + segment.table.size() / 2));
    }
    std::vector<Slot>& table = segment.table;
    const uint32_t below = belowOf(hash);
    size_t index = homeOf(below, table.size());
    while (true) {
        Slot& slot = table[index];
        if (slot.number == kEmpty) {
            slot = Slot{below, next};
            tuples_.growTo(size_t{next} + 1);
            tuples_[next] = tuple;
            ++segment.count;
            ++count_;
            return next;
        }
        if (slot.below == below && tuples_[slot.number] == tuple) {
            return slot.number;
        }
        index = index + 1 == table.size() ? 0 : index + 1;
    }
}

void V4TupleNumbers::resize(Segment& segment, size_t slotCount) {
    std::vector<Slot> old(slotCount);
    old.swap(segment.table);
    std::vector<Slot>& table = segment.table;
    for (const Slot& slot : old) {
        if (slot.number == kEmpty) {
            continue;
        }
        size_t index = homeOf(slot.below, table.size());
        while (table[index].number != kEmpty) {
            index = index + 1 == table.size() ? 0 : index + 1;
        }
        table[index] = slot;
    }
}

}  // namespace tcpscope
