#pragma once
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "decode/frame_view.hpp"
#include "decode/ip_layer.hpp"

namespace tcpscope {

/// Reads the ICMP (IPv4) or ICMPv6 message that `ip` located, when it is an error about a TCP segment
/// whose ports and sequence number were captured, and fills in `quoted` the endpoints and sequence
/// number of that segment:
/// - PacketTooBig, filling `*tooBig`, for a "fragmentation needed" (type 3 code 4) or "packet too
///   big" (ICMPv6 type 2), if `tooBig` is given;
/// - Unreachable, filling `*unreachable`, for any other "destination unreachable" (type 3; ICMPv6
///   type 1), if `unreachable` is given;
/// NotTcp for any other message. Never reads past the captured bytes. `quoted` and the messages are
/// left untouched when the result is NotTcp.
DecodeStatus decodeIcmpError(const FrameView& frame, const IpLayer& ip, TcpSegment& quoted, PacketTooBig* tooBig,
                             DestinationUnreachable* unreachable);

}  // namespace tcpscope
