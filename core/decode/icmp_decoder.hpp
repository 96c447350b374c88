#pragma once
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "decode/frame_view.hpp"
#include "decode/ip_layer.hpp"

namespace tcpscope {

/// Reads the ICMP (IPv4) or ICMPv6 message that `ip` located. Returns PacketTooBig, filling `message`
/// and, in `quoted`, the endpoints and sequence number of the TCP segment it quotes, when it is a
/// "fragmentation needed" (type 3 code 4) or "packet too big" (ICMPv6 type 2) about a TCP segment
/// whose ports and sequence number were captured; NotTcp for any other message. Never reads past the
/// captured bytes. `quoted` and `message` are left untouched unless the result is PacketTooBig.
DecodeStatus decodeIcmpTooBig(const FrameView& frame, const IpLayer& ip, TcpSegment& quoted, PacketTooBig& message);

}  // namespace tcpscope
