#pragma once
// Link layers: finds where the IP header starts in a frame of a given LINKTYPE.
#include <cstdint>

#include "decode/frame_view.hpp"

namespace tcpscope {

/// What the link layer of a frame carries.
enum class LinkStatus : uint8_t {
    Ip,           ///< an IPv4 or IPv6 packet starts at networkOffset
    NotIp,        ///< ARP, LLDP, another AF_ family, ...
    Unsupported,  ///< a link type the decoder does not know
    Truncated,    ///< the frame ends inside the link header
    Malformed,    ///< the link header is inconsistent (raw IP that is neither version 4 nor 6, endless tags)
};

/// The result of decodeLink().
struct LinkLayer {
    LinkStatus status = LinkStatus::Unsupported;
    uint8_t ipVersion = 0;       ///< 4 or 6 when status is Ip
    uint32_t networkOffset = 0;  ///< offset of the IP header when status is Ip
};

/// Ethernet types the link decoder follows.
namespace ethertype {
inline constexpr uint16_t kIpv4 = 0x0800;
inline constexpr uint16_t kIpv6 = 0x86DD;
inline constexpr uint16_t kVlan = 0x8100;      ///< 802.1Q C-tag
inline constexpr uint16_t kQinQ = 0x88A8;      ///< 802.1ad S-tag
inline constexpr uint16_t kQinQOld = 0x9100;   ///< pre-standard QinQ
inline constexpr uint16_t kQinQOld2 = 0x9200;  ///< pre-standard QinQ (some Cisco gear)
inline constexpr uint16_t kPppoeSession = 0x8864;
inline constexpr uint16_t kMplsUnicast = 0x8847;
inline constexpr uint16_t kMplsMulticast = 0x8848;
}  // namespace ethertype

/// Decodes the link header of `frame` (`capturedLength` bytes) for `linkType` (a LINKTYPE_ value).
/// Supported: EN10MB (802.1Q / 802.1ad / QinQ tags, PPPoE session, MPLS), NULL and LOOP (either byte
/// order; AF_INET 2, AF_INET6 10/24/28/30), LINUX_SLL, LINUX_SLL2, RAW (101 and the historical DLT_RAW
/// values 12 and 14), IPV4, IPV6, and Apple's PKTAP (its header, then any of these). Never reads
/// past the captured bytes.
LinkLayer decodeLink(const FrameView& frame, uint32_t linkType);

/// Follows an Ethernet type whose payload starts at `payloadOffset`: VLAN tags, PPPoE, MPLS, then IP.
/// Shared by Ethernet and the Linux cooked headers, whose protocol field is an Ethernet type.
LinkLayer decodeEtherType(const uint8_t* frame, uint32_t capturedLength, uint16_t etherType, uint32_t payloadOffset);

}  // namespace tcpscope
