#pragma once
#include <string>
#include <string_view>

#include "capture/raw_packet.hpp"
#include "decode/decoded_packet.hpp"

namespace tcpscope {

/// Decodes the link, IP and TCP headers of a frame. Fills `segment` only when the result is Tcp.
/// Given `tooBig`, an ICMP or ICMPv6 "too big" message about a TCP segment is PacketTooBig (the
/// quoted segment in `segment`, the rest in `*tooBig`); given `unreachable`, any other "destination
/// unreachable" about a TCP segment is Unreachable (the rest in `*unreachable`); without, they are
/// NotTcp like any other ICMP. Never reads past `packet.capturedLength`.
DecodeStatus decodePacket(const RawPacket& packet, TcpSegment& segment, PacketTooBig* tooBig = nullptr,
                          DestinationUnreachable* unreachable = nullptr);

/// Short lower-case name of a status for counters and messages: "tcp", "not-tcp", "packet-too-big",
/// "unreachable", "fragment", "unsupported-link", "malformed", "truncated".
std::string_view decodeStatusName(DecodeStatus status);

/// True if decodePacket understands this link type.
bool isSupportedLinkType(uint32_t linkType);

/// Short name of a link type as tcpdump prints it ("EN10MB", "LINUX_SLL2", ...), or "LINKTYPE_<n>".
std::string linkTypeName(uint32_t linkType);

}  // namespace tcpscope
