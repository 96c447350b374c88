#pragma once
#include <array>
#include <cstdint>

#include "decode/ip_address.hpp"

namespace tcpscope {

/// TCP header flag bits as on the wire (byte 13 of the TCP header, plus NS in bit 8).
namespace tcpflag {
inline constexpr uint16_t kFin = 0x01;
inline constexpr uint16_t kSyn = 0x02;
inline constexpr uint16_t kRst = 0x04;
inline constexpr uint16_t kPsh = 0x08;
inline constexpr uint16_t kAck = 0x10;
inline constexpr uint16_t kUrg = 0x20;
inline constexpr uint16_t kEce = 0x40;
inline constexpr uint16_t kCwr = 0x80;
inline constexpr uint16_t kNs = 0x100;
}  // namespace tcpflag

/// One SACK block [left, right) from a TCP SACK option.
struct SackBlock {
    uint32_t left = 0;
    uint32_t right = 0;
};

/// TCP options the analysis uses. Absent options keep their "absent" values.
struct TcpOptions {
    uint16_t mss = 0;             ///< 0 = no MSS option
    int8_t windowScale = -1;      ///< -1 = no window scale option; otherwise the shift count (0..14)
    bool sackPermitted = false;
    bool hasTimestamp = false;
    uint32_t tsVal = 0;
    uint32_t tsEcr = 0;
    uint8_t sackCount = 0;
    std::array<SackBlock, 4> sack{};
    uint8_t windowScaleSent = 0;  ///< shift count as sent, before clamping to 14 (valid when windowScale >= 0)
    bool malformed = false;       ///< an option had a bad length: that option, or all after an impossible one, ignored
    bool truncated = false;       ///< the capture ended inside the options: the options after that point are unknown
};

/// The IP and TCP fields of one TCP segment, decoded from a frame without copying its payload.
struct TcpSegment {
    Endpoint source;
    Endpoint destination;
    uint32_t seq = 0;
    uint32_t ack = 0;
    uint16_t flags = 0;           ///< tcpflag bits
    uint16_t window = 0;          ///< raw window field, not scaled
    uint32_t payloadLength = 0;   ///< TCP payload length taken from the IP header lengths
    uint32_t payloadCaptured = 0; ///< payload bytes actually present in the frame
    uint32_t payloadOffset = 0;   ///< offset of the payload in the frame
    uint8_t ipVersion = 4;
    uint8_t ttl = 0;              ///< TTL or hop limit
    uint16_t ipId = 0;            ///< IPv4 identification (0 for IPv6)
    bool sizeLimited = false;     ///< the captured bytes end before the IP packet does (snapshot length)
    TcpOptions options;
};

/// What an ICMP "fragmentation needed" (IPv4 type 3 code 4) or ICMPv6 "packet too big" (type 2)
/// message says: a router could not forward a TCP segment's packet, too large for its next hop
/// (path-MTU discovery, RFC 1191 and 8201). The segment it quotes goes in a TcpSegment.
struct PacketTooBig {
    IpAddress reporter;           ///< the router (or host) that sent the message
    uint32_t nextHopMtu = 0;      ///< the largest packet the next hop takes; 0 if the router did not say
    uint32_t quotedPacketBytes = 0; ///< IP length of the packet that did not fit, as its quoted header gives it
};

/// What an ICMP "destination unreachable" (IPv4 type 3, any code but 4) or ICMPv6 "destination
/// unreachable" (type 1) message says about a TCP segment: a router or host refused to deliver it
/// (a firewall's reject rule, no route, a host that does not answer). The segment it quotes goes in
/// a TcpSegment; describeUnreachable() (decode/icmp_unreachable.hpp) says what the code means.
struct DestinationUnreachable {
    IpAddress reporter;  ///< the router (or host) that sent the message
    uint8_t type = 0;    ///< 3 (ICMP) or 1 (ICMPv6)
    uint8_t code = 0;
};

/// What the decoder made of a frame.
enum class DecodeStatus : uint8_t {
    Tcp,              ///< a TCP segment; the TcpSegment is filled in
    NotTcp,           ///< IP but another transport (UDP, ICMP, ...), or not IP at all (ARP, ...)
    PacketTooBig,     ///< an ICMP or ICMPv6 "too big" message about a TCP segment: the TcpSegment holds what
                      ///< it quotes of the segment (endpoints, sequence number), PacketTooBig the rest
    Unreachable,      ///< an ICMP or ICMPv6 "destination unreachable" about a TCP segment: the TcpSegment holds
                      ///< what it quotes of the segment, DestinationUnreachable the rest
    Fragment,         ///< an IPv4 or IPv6 fragment of a TCP packet (first or not): counted, not parsed as TCP
    UnsupportedLink,  ///< a link type the decoder does not know
    Malformed,        ///< headers inconsistent (bad lengths, bad version)
    Truncated,        ///< the frame ends before the TCP header does
};

}  // namespace tcpscope
