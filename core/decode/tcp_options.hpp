#pragma once
#include <cstdint>

#include "decode/decoded_packet.hpp"

namespace tcpscope {

/// TCP option kinds (IANA "TCP Option Kind Numbers") the decoder reads.
namespace tcpoption {
inline constexpr uint8_t kEndOfList = 0;
inline constexpr uint8_t kNop = 1;
inline constexpr uint8_t kMss = 2;
inline constexpr uint8_t kWindowScale = 3;
inline constexpr uint8_t kSackPermitted = 4;
inline constexpr uint8_t kSack = 5;
inline constexpr uint8_t kTimestamp = 8;
}  // namespace tcpoption

/// The largest window scale shift count RFC 7323 allows; larger values are used as 14.
inline constexpr uint8_t kMaxWindowScale = 14;

/// Parses the option bytes of a TCP header: `headerOptionBytes` per the data offset, of which the
/// first `capturedOptionBytes` are present at `options`. Unknown options are skipped by their length.
/// An option whose length is impossible (< 2, or past the header) stops parsing and sets `malformed`;
/// a known option with the wrong length for its kind is ignored and also sets `malformed`; options
/// cut off by the capture set `truncated`. Never reads past `capturedOptionBytes`; never fails.
/// Overwrites all of `out` (filled in place: returning the struct by value cost a store-forwarding
/// stall per packet on the hot path).
void parseTcpOptions(const uint8_t* options, uint32_t headerOptionBytes, uint32_t capturedOptionBytes,
                     TcpOptions& out);

}  // namespace tcpscope
