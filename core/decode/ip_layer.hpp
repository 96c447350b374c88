#pragma once
// The IP-layer facts the TCP decoder needs, pointing into the frame rather than copying it.
#include <cstdint>

namespace tcpscope {

/// What decodeIpv4() / decodeIpv6() found in the IP header(s) of a frame carrying TCP.
struct IpLayer {
    const uint8_t* source = nullptr;       ///< 4 (IPv4) or 16 (IPv6) address bytes inside the frame
    const uint8_t* destination = nullptr;  ///< 4 or 16 address bytes inside the frame
    uint32_t transportOffset = 0;          ///< offset of the TCP header in the frame
    uint32_t transportLength = 0;          ///< TCP header + payload bytes as the IP header(s) give them
    uint8_t version = 4;                   ///< 4 or 6
    uint8_t ttl = 0;                       ///< TTL or hop limit
    uint16_t ipId = 0;                     ///< IPv4 identification, 0 for IPv6
    uint8_t protocol = 0;                  ///< the transport located: 6 TCP, 1 ICMP, 58 ICMPv6; 0 none
};

}  // namespace tcpscope
