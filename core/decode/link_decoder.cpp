#include "decode/link_decoder.hpp"

#include <optional>

#include "capture/pktap_header.hpp"
#include "capture/raw_packet.hpp"
#include "decode/byte_order.hpp"

namespace tcpscope {
namespace {

constexpr uint32_t kEthernetHeaderBytes = 14;
constexpr uint32_t kVlanTagBytes = 4;
constexpr uint32_t kSllHeaderBytes = 16;
constexpr uint32_t kSllProtocolOffset = 14;
constexpr uint32_t kSll2HeaderBytes = 20;
constexpr uint32_t kNullHeaderBytes = 4;
constexpr uint32_t kPppoeHeaderBytes = 8;  // 6 bytes PPPoE + 2 bytes PPP protocol
constexpr uint32_t kMplsLabelBytes = 4;
// Real networks stack at most a handful of tags or labels; more means garbage, and the bound keeps
// the per-packet work constant.
constexpr int kMaxStackedHeaders = 8;

/// Historical DLT_RAW values that old libpcaps wrote into files before LINKTYPE_RAW (101) existed:
/// 12 on most systems, 14 on OpenBSD and BSD/OS. On OpenBSD 12 was DLT_LOOP instead.
constexpr uint32_t kDltRawMost = 12;
constexpr uint32_t kDltRawOpenBsd = 14;

constexpr LinkLayer ip(uint8_t version, uint32_t offset) { return {LinkStatus::Ip, version, offset}; }
constexpr LinkLayer status(LinkStatus value) { return {value, 0, 0}; }

/// Raw IP: the version is the first nibble of the IP header.
LinkLayer rawIp(const uint8_t* frame, uint32_t capturedLength, uint32_t offset) {
    if (capturedLength <= offset) {
        return status(LinkStatus::Truncated);
    }
    const auto version = static_cast<uint8_t>(frame[offset] >> 4);
    if (version != 4 && version != 6) {
        return status(LinkStatus::Malformed);
    }
    return ip(version, offset);
}

/// BSD AF_ values for IP. AF_INET6 differs per OS, and a file may come from any of them.
LinkLayer fromAddressFamily(uint32_t family, uint32_t offset) {
    switch (family) {
    case 2:  // AF_INET everywhere
        return ip(4, offset);
    case 10:  // AF_INET6 on Linux
    case 24:  // NetBSD, OpenBSD, BSD/OS
    case 28:  // FreeBSD, DragonFly BSD
    case 30:  // macOS, iOS
        return ip(6, offset);
    default:
        return status(LinkStatus::NotIp);
    }
}

/// NULL stores the AF_ value in the byte order of the capturing host, LOOP in network order. The
/// values are small, so a value above 0xFFFF is one written in the other byte order.
LinkLayer nullOrLoop(const uint8_t* frame, uint32_t capturedLength, bool networkOrder) {
    if (capturedLength < kNullHeaderBytes) {
        return status(LinkStatus::Truncated);
    }
    uint32_t family = networkOrder ? loadBigEndian32(frame) : loadLittleEndian32(frame);
    if (family > 0xFFFF) {
        family = __builtin_bswap32(family);
    }
    return fromAddressFamily(family, kNullHeaderBytes);
}

/// Link type 12: DLT_RAW almost everywhere, but DLT_LOOP in files written on OpenBSD. A raw IP
/// packet starts with nibble 4 or 6; a LOOP header starts with a zero byte.
LinkLayer historicalRaw12(const uint8_t* frame, uint32_t capturedLength) {
    if (capturedLength > 0 && (frame[0] >> 4) == 0) {
        return nullOrLoop(frame, capturedLength, true);
    }
    return rawIp(frame, capturedLength, 0);
}

LinkLayer pppoeSession(const uint8_t* frame, uint32_t capturedLength, uint32_t offset) {
    if (capturedLength < offset + kPppoeHeaderBytes) {
        return status(LinkStatus::Truncated);
    }
    if (frame[offset] != 0x11) {  // version 1, type 1
        return status(LinkStatus::NotIp);
    }
    switch (loadBigEndian16(frame + offset + 6)) {
    case 0x0021:
        return ip(4, offset + kPppoeHeaderBytes);
    case 0x0057:
        return ip(6, offset + kPppoeHeaderBytes);
    default:
        return status(LinkStatus::NotIp);
    }
}

/// An MPLS label stack: labels up to the bottom-of-stack bit, then IP guessed from its first nibble
/// (what else follows, an Ethernet pseudowire or a control word, starts with nibble 0).
LinkLayer mplsStack(const uint8_t* frame, uint32_t capturedLength, uint32_t offset) {
    for (int label = 0; label < kMaxStackedHeaders; ++label) {
        if (capturedLength < offset + kMplsLabelBytes) {
            return status(LinkStatus::Truncated);
        }
        const bool bottomOfStack = (frame[offset + 2] & 0x01) != 0;
        offset += kMplsLabelBytes;
        if (bottomOfStack) {
            if (capturedLength <= offset) {
                return status(LinkStatus::Truncated);
            }
            const auto version = static_cast<uint8_t>(frame[offset] >> 4);
            return version == 4 || version == 6 ? ip(version, offset) : status(LinkStatus::NotIp);
        }
    }
    return status(LinkStatus::Malformed);
}

}  // namespace

LinkLayer decodeEtherType(const uint8_t* frame, uint32_t capturedLength, uint16_t etherType, uint32_t payloadOffset) {
    for (int tag = 0; tag <= kMaxStackedHeaders; ++tag) {
        switch (etherType) {
        case ethertype::kIpv4:
            return ip(4, payloadOffset);
        case ethertype::kIpv6:
            return ip(6, payloadOffset);
        case ethertype::kVlan:
        case ethertype::kQinQ:
        case ethertype::kQinQOld:
        case ethertype::kQinQOld2:
            // A tag is 2 bytes of priority / VLAN id, then the Ethernet type of what follows it.
            if (capturedLength < payloadOffset + kVlanTagBytes) {
                return status(LinkStatus::Truncated);
            }
            etherType = loadBigEndian16(frame + payloadOffset + 2);
            payloadOffset += kVlanTagBytes;
            break;
        case ethertype::kPppoeSession:
            return pppoeSession(frame, capturedLength, payloadOffset);
        case ethertype::kMplsUnicast:
        case ethertype::kMplsMulticast:
            return mplsStack(frame, capturedLength, payloadOffset);
        default:
            return status(LinkStatus::NotIp);
        }
    }
    return status(LinkStatus::Malformed);
}

namespace {

// Apple's pktap: its header (with the process) then a frame of the link type it names.
LinkLayer pktap(const FrameView& view) {
    const uint32_t capturedLength = view.capturedLength;
    if (capturedLength < PktapHeader::kMinBytes) {
        return status(LinkStatus::Truncated);
    }
    const std::optional<PktapHeader> header = readPktapHeader(view.data, capturedLength);
    if (!header || header->innerLinkType == linktype::kPktap) {
        return status(LinkStatus::Malformed);
    }
    const FrameView inner{view.data + header->length, capturedLength - header->length,
                          view.wireLength > header->length ? view.wireLength - header->length : 0};
    LinkLayer layer = decodeLink(inner, header->innerLinkType);
    if (layer.status == LinkStatus::Ip) {
        layer.networkOffset += header->length;
    }
    return layer;
}

}  // namespace

LinkLayer decodeLink(const FrameView& view, uint32_t linkType) {
    const uint8_t* frame = view.data;
    const uint32_t capturedLength = view.capturedLength;
    switch (linkType) {
    case linktype::kEthernet:
        if (capturedLength < kEthernetHeaderBytes) {
            return status(LinkStatus::Truncated);
        }
        return decodeEtherType(frame, capturedLength, loadBigEndian16(frame + 12), kEthernetHeaderBytes);
    case linktype::kLinuxSll:
        if (capturedLength < kSllHeaderBytes) {
            return status(LinkStatus::Truncated);
        }
        return decodeEtherType(frame, capturedLength, loadBigEndian16(frame + kSllProtocolOffset), kSllHeaderBytes);
    case linktype::kLinuxSll2:
        if (capturedLength < kSll2HeaderBytes) {
            return status(LinkStatus::Truncated);
        }
        return decodeEtherType(frame, capturedLength, loadBigEndian16(frame), kSll2HeaderBytes);
    case linktype::kNull:
        return nullOrLoop(frame, capturedLength, false);
    case linktype::kLoop:
        return nullOrLoop(frame, capturedLength, true);
    case linktype::kRaw:
    case kDltRawOpenBsd:
        return rawIp(frame, capturedLength, 0);
    case kDltRawMost:
        return historicalRaw12(frame, capturedLength);
    case linktype::kIpv4:
        return ip(4, 0);
    case linktype::kIpv6:
        return ip(6, 0);
    case linktype::kPktap:
        return pktap(view);
    default:
        return status(LinkStatus::Unsupported);
    }
}

}  // namespace tcpscope
