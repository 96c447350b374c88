#pragma once
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "decode/frame_view.hpp"
#include "decode/ip_layer.hpp"

namespace tcpscope {

/// Decodes the IPv4 header at `offset` of `frame`. Returns Tcp (and fills `ip`) when the packet is an
/// unfragmented TCP packet; NotTcp for another protocol (for unfragmented ICMP, `ip` is filled too, with
/// `ip.protocol` 1, so that a message quoting a TCP segment can be read); Fragment for any fragment of a TCP packet
/// (first ones too: without reassembly their TCP length would be wrong); Malformed for a bad version,
/// header length or total length; Truncated when the header is not all captured.
/// The frame's wire length sizes TSO packets, whose total length is 0.
/// The TCP length comes from the total length, never from the frame, so padding and snaplen cuts
/// do not change it. Never reads past the captured bytes.
DecodeStatus decodeIpv4(const FrameView& frame, uint32_t offset, IpLayer& ip);

}  // namespace tcpscope
