#pragma once
#include <cstdint>
#include <utility>

#include "decode/ip_address.hpp"

namespace tcpscope {

/// A TCP 4-tuple in canonical order (the lower endpoint first), so both directions of a
/// connection map to the same key.
struct FlowKey {
    Endpoint low;
    Endpoint high;

    /// The key of a segment from `source` to `destination`; `sourceIsLow` tells which side it came from.
    static FlowKey fromSegment(const Endpoint& source, const Endpoint& destination, bool& sourceIsLow) {
        sourceIsLow = !(destination < source);
        return sourceIsLow ? FlowKey{source, destination} : FlowKey{destination, source};
    }

    bool operator==(const FlowKey&) const = default;

    template <typename H>
    friend H AbslHashValue(H state, const FlowKey& key) {
        return H::combine(std::move(state), key.low, key.high);
    }
};

/// Which distinct 4-tuple a segment belongs to and from which end it came.
struct TupleRef {
    static constexpr uint32_t kNone = UINT32_MAX;

    uint32_t tuple = kNone;    ///< dense number of the tuple, 0, 1, ... in order of first sight
    bool sourceIsLow = true;   ///< the segment came from the tuple's lower endpoint
};

}  // namespace tcpscope
