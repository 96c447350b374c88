#pragma once
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "decode/frame_view.hpp"
#include "decode/ip_layer.hpp"

namespace tcpscope {

/// Decodes the IPv6 header at `offset` of `frame` and walks its extension headers (hop-by-hop,
/// routing, fragment, destination options, AH, mobility) to TCP. Returns Tcp (and fills `ip`) for an
/// unfragmented TCP packet (an atomic fragment, offset 0 without M, counts as unfragmented);
/// Fragment for a fragment of a packet that may carry TCP; NotTcp for ESP, "no next header" or another
/// protocol (for ICMPv6, `ip` is filled too, with `ip.protocol` 58, so that a message quoting a TCP
/// segment can be read);
/// Malformed for a bad version or an extension header longer than the payload; Truncated when the
/// headers are not all captured. The frame's wire length sizes packets whose payload length is 0
/// (a jumbogram, or BIG TCP / GSO on the capturing host). Never reads past the captured bytes.
DecodeStatus decodeIpv6(const FrameView& frame, uint32_t offset, IpLayer& ip);

}  // namespace tcpscope
