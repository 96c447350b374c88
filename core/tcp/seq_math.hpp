#pragma once
#include <cstdint>

namespace tcpscope::seq {

// TCP sequence numbers live on a 32-bit circle (RFC 793 section 3.3): a is "before" b when the
// signed distance from b to a is negative. All comparisons of sequence or acknowledgement
// numbers go through these so that wraparound is handled in one place.

/// a < b in sequence space.
constexpr bool lt(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }
/// a <= b in sequence space.
constexpr bool le(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) <= 0; }
/// a > b in sequence space.
constexpr bool gt(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) > 0; }
/// a >= b in sequence space.
constexpr bool ge(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) >= 0; }

}  // namespace tcpscope::seq
