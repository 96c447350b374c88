#pragma once
#include <string>
#include <string_view>

#include "capture/raw_packet.hpp"
#include "decode/decoded_packet.hpp"

namespace tcpscope {

/// Decodes the link, IP and TCP headers of a frame. Fills `segment` only when the result is Tcp.
/// Never reads past `packet.capturedLength`.
DecodeStatus decodePacket(const RawPacket& packet, TcpSegment& segment);

/// Short lower-case name of a status for counters and messages: "tcp", "not-tcp", "fragment",
/// "unsupported-link", "malformed", "truncated".
std::string_view decodeStatusName(DecodeStatus status);

/// True if decodePacket understands this link type.
bool isSupportedLinkType(uint32_t linkType);

/// Short name of a link type as tcpdump prints it ("EN10MB", "LINUX_SLL2", ...), or "LINKTYPE_<n>".
std::string linkTypeName(uint32_t linkType);

}  // namespace tcpscope
