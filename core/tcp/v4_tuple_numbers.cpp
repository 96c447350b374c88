#include "tcp/v4_tuple_numbers.hpp"

#include <algorithm>
#include <utility>

#include <absl/hash/hash.h>

namespace tcpscope {

size_t V4TupleNumbers::homeOf(const V4Tuple& tuple) const {
    const uint64_t hash = absl::Hash<std::pair<uint64_t, uint32_t>>{}(
        {(uint64_t{tuple.lowAddress} << 32) | tuple.highAddress, tuple.ports});
    return static_cast<size_t>(((hash >> 32) * slots_.size()) >> 32);
}

uint32_t V4TupleNumbers::numberOf(const V4Tuple& tuple, uint32_t next) {
    // At most three quarters full: a tuple not there yet is found missing within a few lines.
    if (4 * (count_ + 1) > 3 * slots_.size()) {
        constexpr size_t kFirstSlots = 64;
        resize(std::max(kFirstSlots, slots_.size() + slots_.size() / 2));
    }
    size_t index = homeOf(tuple);
    while (true) {
        Slot& slot = slots_[index];
        if (slot.number == kEmpty) {
            slot = Slot{tuple, next};
            ++count_;
            return next;
        }
        if (slot.tuple == tuple) {
            return slot.number;
        }
        index = index + 1 == slots_.size() ? 0 : index + 1;
    }
}

void V4TupleNumbers::resize(size_t slotCount) {
    std::vector<Slot> old(slotCount);
    old.swap(slots_);
    for (const Slot& slot : old) {
        if (slot.number == kEmpty) {
            continue;
        }
        size_t index = homeOf(slot.tuple);
        while (slots_[index].number != kEmpty) {
            index = index + 1 == slots_.size() ? 0 : index + 1;
        }
        slots_[index] = slot;
    }
}

}  // namespace tcpscope
