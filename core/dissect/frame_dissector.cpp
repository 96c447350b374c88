#include "dissect/frame_dissector.hpp"

#include <fmt/format.h>

#include "capture/raw_packet.hpp"
#include "decode/byte_order.hpp"
#include "decode/link_decoder.hpp"
#include "tcp/connection.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope::dissect {

namespace {

constexpr uint8_t kProtocolTcp = 6;
constexpr uint32_t kEthernetHeaderBytes = 14;
constexpr uint32_t kVlanTagBytes = 4;
constexpr uint32_t kSllHeaderBytes = 16;
constexpr uint32_t kSll2HeaderBytes = 20;
constexpr uint32_t kIpv4MinimumHeaderBytes = 20;
constexpr uint32_t kIpv6HeaderBytes = 40;

/// The frame's bytes with bounds: every read asks whether the bytes were captured.
struct Bytes {
    const FrameBytes& frame;
    [[nodiscard]] uint32_t size() const { return static_cast<uint32_t>(frame.data.size()); }
    [[nodiscard]] bool has(uint32_t offset, uint32_t length) const {
        return offset <= size() && length <= size() - offset;
    }
    [[nodiscard]] const uint8_t* at(uint32_t offset) const { return frame.data.data() + offset; }
    [[nodiscard]] uint16_t u16(uint32_t offset) const { return loadBigEndian16(at(offset)); }
    [[nodiscard]] uint32_t u32(uint32_t offset) const { return loadBigEndian32(at(offset)); }
};

std::string macText(const uint8_t* bytes, uint32_t length = 6) {
    std::string text;
    for (uint32_t i = 0; i < length; ++i) {
        text += fmt::format("{}{:02x}", i == 0 ? "" : ":", bytes[i]);
    }
    return text;
}

std::string ipv4Text(const uint8_t* bytes) {
    return fmt::format("{}.{}.{}.{}", bytes[0], bytes[1], bytes[2], bytes[3]);
}

std::string ipv6Text(const uint8_t* bytes) {
    // RFC 5952: lower-case hex, the longest run of two or more zero groups as "::".
    uint16_t groups[8];
    for (int i = 0; i < 8; ++i) {
        groups[i] = loadBigEndian16(bytes + 2 * i);
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8;) {
        int run = 0;
        while (i + run < 8 && groups[i + run] == 0) {
            ++run;
        }
        if (run > bestLength) {
            bestStart = i;
            bestLength = run;
        }
        i += run == 0 ? 1 : run;
    }
    std::string text;
    for (int i = 0; i < 8; ++i) {
        if (i == bestStart) {
            text += "::";
            i += bestLength - 1;
            continue;
        }
        if (!text.empty() && text.back() != ':') {
            text.push_back(':');
        }
        text += fmt::format("{:x}", groups[i]);
    }
    return text;
}

std::string etherTypeName(uint16_t type) {
    switch (type) {
        case ethertype::kIpv4: return "IPv4";
        case ethertype::kIpv6: return "IPv6";
        case ethertype::kVlan: return "802.1Q Virtual LAN";
        case ethertype::kQinQ: return "802.1ad Provider Bridge (Q-in-Q)";
        case 0x0806: return "ARP";
        case ethertype::kPppoeSession: return "PPPoE Session";
        case ethertype::kMplsUnicast: return "MPLS label switched packet";
        default: return "Unknown";
    }
}

std::string hexValue(uint32_t value, int digits) {
    return fmt::format("0x{:0{}x}", value, digits);
}

std::string protocolName(uint8_t protocol) {
    switch (protocol) {
        case 1: return "ICMP";
        case kProtocolTcp: return "TCP";
        case 17: return "UDP";
        case 58: return "ICMPv6";
        case 0: return "IPv6 Hop-by-Hop Option";
        case 43: return "Routing Header for IPv6";
        case 44: return "Fragment Header for IPv6";
        case 60: return "Destination Options for IPv6";
        default: return "Unknown";
    }
}

void cutShort(DissectionNode& layer) {
    layer.add(kPacketSizeLimited, {}, "_ws.short");
}

/// Where the IP header starts after an EtherType at `typeOffset`: VLAN tags are dissected; the
/// rest (PPPoE, MPLS) is left to the link decoder, which knows how to skip it.
struct NextLayer {
    uint32_t offset = 0;
    uint16_t etherType = 0;
    bool found = false;
};

NextLayer etherTypeAndTags(const Bytes& bytes, uint32_t typeOffset, DissectionNode& layer,
                           std::vector<DissectionNode>& layers, const char* typeLabel, const char* typeField) {
    uint16_t type = bytes.u16(typeOffset);
    layer.add(typeLabel, fmt::format("{} ({})", etherTypeName(type), hexValue(type, 4)), typeField, typeOffset, 2);
    uint32_t offset = typeOffset + 2;
    while (type == ethertype::kVlan || type == ethertype::kQinQ || type == ethertype::kQinQOld ||
           type == ethertype::kQinQOld2) {
        DissectionNode tag{"802.1Q Virtual LAN", {}, "vlan", offset, kVlanTagBytes, {}};
        if (!bytes.has(offset, kVlanTagBytes)) {
            cutShort(tag);
            layers.push_back(std::move(tag));
            return {};
        }
        const uint16_t control = bytes.u16(offset);
        type = bytes.u16(offset + 2);
        tag.value = fmt::format("PRI: {}, DEI: {}, ID: {}", control >> 13, (control >> 12) & 1, control & 0x0FFF);
        tag.add("Priority", std::to_string(control >> 13), "vlan.priority", offset, 2);
        tag.add("DEI", std::to_string((control >> 12) & 1), "vlan.dei", offset, 2);
        tag.add("ID", std::to_string(control & 0x0FFF), "vlan.id", offset, 2);
        tag.add("Type", fmt::format("{} ({})", etherTypeName(type), hexValue(type, 4)), "vlan.etype", offset + 2, 2);
        layers.push_back(std::move(tag));
        offset += kVlanTagBytes;
    }
    return {offset, type, true};
}

std::string packetTypeName(uint16_t type) {
    switch (type) {
        case 0: return "Unicast to us";
        case 1: return "Broadcast";
        case 2: return "Multicast";
        case 3: return "Unicast to another host";
        case 4: return "Sent by us";
        default: return "Unknown";
    }
}

/// The link header's rows; returns where IP starts (found == false: not IP or cut short).
NextLayer dissectLink(const Bytes& bytes, uint32_t linkType, std::vector<DissectionNode>& layers) {
    switch (linkType) {
        case linktype::kEthernet: {
            DissectionNode eth{"Ethernet II", {}, "eth", 0, kEthernetHeaderBytes, {}};
            if (!bytes.has(0, kEthernetHeaderBytes)) {
                cutShort(eth);
                layers.push_back(std::move(eth));
                return {};
            }
            eth.value = fmt::format("Src: {}, Dst: {}", macText(bytes.at(6)), macText(bytes.at(0)));
            eth.add("Destination", macText(bytes.at(0)), "eth.dst", 0, 6);
            eth.add("Source", macText(bytes.at(6)), "eth.src", 6, 6);
            layers.push_back(std::move(eth));
            return etherTypeAndTags(bytes, 12, layers.back(), layers, "Type", "eth.type");
        }
        case linktype::kLinuxSll: {
            DissectionNode sll{"Linux cooked capture v1", {}, "sll", 0, kSllHeaderBytes, {}};
            if (!bytes.has(0, kSllHeaderBytes)) {
                cutShort(sll);
                layers.push_back(std::move(sll));
                return {};
            }
            const uint16_t packetType = bytes.u16(0);
            const uint16_t addressLength = bytes.u16(4);
            sll.add("Packet type", fmt::format("{} ({})", packetTypeName(packetType), packetType), "sll.pkttype", 0, 2);
            sll.add("Link-layer address type", std::to_string(bytes.u16(2)), "sll.hatype", 2, 2);
            sll.add("Link-layer address length", std::to_string(addressLength), "sll.halen", 4, 2);
            sll.add("Source", macText(bytes.at(6), std::min<uint32_t>(addressLength, 8)), "sll.src.eth", 6, 8);
            layers.push_back(std::move(sll));
            return etherTypeAndTags(bytes, 14, layers.back(), layers, "Protocol", "sll.etype");
        }
        case linktype::kLinuxSll2: {
            DissectionNode sll{"Linux cooked capture v2", {}, "sll", 0, kSll2HeaderBytes, {}};
            if (!bytes.has(0, kSll2HeaderBytes)) {
                cutShort(sll);
                layers.push_back(std::move(sll));
                return {};
            }
            const uint16_t type = bytes.u16(0);
            sll.add("Protocol", fmt::format("{} ({})", etherTypeName(type), hexValue(type, 4)), "sll.etype", 0, 2);
            sll.add("Interface index", std::to_string(bytes.u32(4)), "sll.ifindex", 4, 4);
            sll.add("Link-layer address type", std::to_string(bytes.u16(8)), "sll.hatype", 8, 2);
            sll.add("Packet type", fmt::format("{} ({})", packetTypeName(bytes.at(10)[0]), bytes.at(10)[0]),
                    "sll.pkttype", 10, 1);
            sll.add("Link-layer address length", std::to_string(bytes.at(11)[0]), "sll.halen", 11, 1);
            sll.add("Source", macText(bytes.at(12), std::min<uint32_t>(bytes.at(11)[0], 8)), "sll.src.eth", 12, 8);
            layers.push_back(std::move(sll));
            if (type == ethertype::kIpv4 || type == ethertype::kIpv6) {
                return {kSll2HeaderBytes, type, true};
            }
            return {};
        }
        case linktype::kNull:
        case linktype::kLoop: {
            DissectionNode null{"Null/Loopback", {}, "null", 0, 4, {}};
            if (!bytes.has(0, 4)) {
                cutShort(null);
                layers.push_back(std::move(null));
                return {};
            }
            // NULL holds the family in the capturing host's byte order: the small one is right.
            const uint32_t big = bytes.u32(0);
            const uint32_t little = loadLittleEndian32(bytes.at(0));
            const uint32_t family = linkType == linktype::kLoop ? big : std::min(big, little);
            null.add("Family",
                     fmt::format("{} ({})",
                                 family == 2                                                      ? "IP"
                                 : (family == 10 || family == 24 || family == 28 || family == 30) ? "IPv6"
                                                                                                  : "Unknown",
                                 family),
                     "null.family", 0, 4);
            layers.push_back(std::move(null));
            break;
        }
        case linktype::kRaw:
        case linktype::kIpv4:
        case linktype::kIpv6:
        case 12:
        case 14:
            layers.push_back(DissectionNode{"Raw packet data", "No link information available", "raw", 0, 0, {}});
            break;
        default:
            layers.push_back(DissectionNode{
                "Link layer", fmt::format("link type {} (header not dissected)", linkType), {}, 0, 0, {}});
            break;
    }
    // The rest (loopback families, raw IP, pktap, PPPoE, MPLS) the link decoder already knows.
    const LinkLayer link = decodeLink(FrameView{bytes.at(0), bytes.size(), bytes.frame.originalLength}, linkType);
    if (link.status == LinkStatus::Truncated) {
        cutShort(layers.back());
    }
    if (link.status != LinkStatus::Ip) {
        return {};
    }
    return {link.networkOffset, link.ipVersion == 4 ? ethertype::kIpv4 : ethertype::kIpv6, true};
}

std::string ecnName(uint8_t ecn) {
    switch (ecn) {
        case 0: return "Not-ECT";
        case 1: return "ECT(1)";
        case 2: return "ECT(0)";
        default: return "CE";
    }
}

/// IPv4: returns the TCP segment's offset and length, or 0 length when not TCP / not reachable.
std::pair<uint32_t, uint32_t> dissectIpv4(const Bytes& bytes, uint32_t offset, std::vector<DissectionNode>& layers) {
    DissectionNode ip{"Internet Protocol Version 4", {}, "ip", offset, kIpv4MinimumHeaderBytes, {}};
    if (!bytes.has(offset, kIpv4MinimumHeaderBytes)) {
        cutShort(ip);
        layers.push_back(std::move(ip));
        return {0, 0};
    }
    const uint8_t versionAndLength = bytes.at(offset)[0];
    const uint32_t headerBytes = (versionAndLength & 0x0F) * 4U;
    const uint8_t tos = bytes.at(offset + 1)[0];
    const uint16_t totalLength = bytes.u16(offset + 2);
    const uint16_t flagsAndOffset = bytes.u16(offset + 6);
    const uint8_t protocol = bytes.at(offset + 9)[0];
    ip.length = headerBytes;
    ip.value = fmt::format("Src: {}, Dst: {}", ipv4Text(bytes.at(offset + 12)), ipv4Text(bytes.at(offset + 16)));
    ip.add("Version", std::to_string(versionAndLength >> 4), "ip.version", offset, 1);
    ip.add("Header Length", fmt::format("{} bytes ({})", headerBytes, versionAndLength & 0x0F), "ip.hdr_len", offset,
           1);
    DissectionNode& ds = ip.add("Differentiated Services Field", hexValue(tos, 2), "ip.dsfield", offset + 1, 1);
    ds.add("Differentiated Services Codepoint", std::to_string(tos >> 2), "ip.dsfield.dscp", offset + 1, 1);
    ds.add("Explicit Congestion Notification", fmt::format("{} ({})", ecnName(tos & 3), tos & 3), "ip.dsfield.ecn",
           offset + 1, 1);
    ip.add("Total Length", std::to_string(totalLength), "ip.len", offset + 2, 2);
    ip.add("Identification", fmt::format("{} ({})", hexValue(bytes.u16(offset + 4), 4), bytes.u16(offset + 4)), "ip.id",
           offset + 4, 2);
    DissectionNode& flags = ip.add("Flags", hexValue(flagsAndOffset >> 13, 1), "ip.flags", offset + 6, 1);
    const bool dontFragment = (flagsAndOffset & 0x4000) != 0;
    const bool moreFragments = (flagsAndOffset & 0x2000) != 0;
    if (dontFragment) {
        flags.value += ", Don't fragment";
    }
    if (moreFragments) {
        flags.value += ", More fragments";
    }
    flags.add("Reserved bit", (flagsAndOffset & 0x8000) != 0 ? "Set" : "Not set", "ip.flags.rb", offset + 6, 1);
    flags.add("Don't fragment", dontFragment ? "Set" : "Not set", "ip.flags.df", offset + 6, 1);
    flags.add("More fragments", moreFragments ? "Set" : "Not set", "ip.flags.mf", offset + 6, 1);
    ip.add("Fragment Offset", std::to_string((flagsAndOffset & 0x1FFF) * 8U), "ip.frag_offset", offset + 6, 2);
    ip.add("Time to Live", std::to_string(bytes.at(offset + 8)[0]), "ip.ttl", offset + 8, 1);
    ip.add("Protocol", fmt::format("{} ({})", protocolName(protocol), protocol), "ip.proto", offset + 9, 1);
    ip.add("Header Checksum", fmt::format("{} [validation disabled]", hexValue(bytes.u16(offset + 10), 4)),
           "ip.checksum", offset + 10, 2);
    ip.add("Source Address", ipv4Text(bytes.at(offset + 12)), "ip.src", offset + 12, 4);
    ip.add("Destination Address", ipv4Text(bytes.at(offset + 16)), "ip.dst", offset + 16, 4);
    if (headerBytes < kIpv4MinimumHeaderBytes || totalLength < headerBytes) {
        ip.add("[Bogus IP header or total length]", {}, "_ws.malformed");
        layers.push_back(std::move(ip));
        return {0, 0};
    }
    if (headerBytes > kIpv4MinimumHeaderBytes) {
        ip.add("Options", fmt::format("({} bytes)", headerBytes - kIpv4MinimumHeaderBytes), "ip.options",
               offset + kIpv4MinimumHeaderBytes, headerBytes - kIpv4MinimumHeaderBytes);
    }
    layers.push_back(std::move(ip));
    if (protocol != kProtocolTcp || (flagsAndOffset & 0x1FFF) != 0) {
        return {0, 0};
    }
    return {offset + headerBytes, totalLength - headerBytes};
}

std::pair<uint32_t, uint32_t> dissectIpv6(const Bytes& bytes, uint32_t offset, std::vector<DissectionNode>& layers) {
    DissectionNode ip{"Internet Protocol Version 6", {}, "ipv6", offset, kIpv6HeaderBytes, {}};
    if (!bytes.has(offset, kIpv6HeaderBytes)) {
        cutShort(ip);
        layers.push_back(std::move(ip));
        return {0, 0};
    }
    const uint32_t first = bytes.u32(offset);
    const uint32_t trafficClass = (first >> 20) & 0xFF;
    const uint16_t payloadLength = bytes.u16(offset + 4);
    uint8_t next = bytes.at(offset + 6)[0];
    ip.value = fmt::format("Src: {}, Dst: {}", ipv6Text(bytes.at(offset + 8)), ipv6Text(bytes.at(offset + 24)));
    ip.add("Version", std::to_string(first >> 28), "ipv6.version", offset, 1);
    DissectionNode& tc = ip.add("Traffic Class", hexValue(trafficClass, 2), "ipv6.tclass", offset, 2);
    tc.add("Differentiated Services Codepoint", std::to_string(trafficClass >> 2), "ipv6.tclass.dscp", offset, 2);
    tc.add("Explicit Congestion Notification", fmt::format("{} ({})", ecnName(trafficClass & 3), trafficClass & 3),
           "ipv6.tclass.ecn", offset, 2);
    ip.add("Flow Label", hexValue(first & 0xFFFFF, 5), "ipv6.flow", offset + 1, 3);
    ip.add("Payload Length", std::to_string(payloadLength), "ipv6.plen", offset + 4, 2);
    ip.add("Next Header", fmt::format("{} ({})", protocolName(next), next), "ipv6.nxt", offset + 6, 1);
    ip.add("Hop Limit", std::to_string(bytes.at(offset + 7)[0]), "ipv6.hlim", offset + 7, 1);
    ip.add("Source Address", ipv6Text(bytes.at(offset + 8)), "ipv6.src", offset + 8, 16);
    ip.add("Destination Address", ipv6Text(bytes.at(offset + 24)), "ipv6.dst", offset + 24, 16);
    uint32_t position = offset + kIpv6HeaderBytes;
    uint32_t left = payloadLength;
    // Extension headers: hop-by-hop, routing, destination options (8-byte units) and fragment.
    while (next == 0 || next == 43 || next == 60 || next == 44) {
        if (!bytes.has(position, 8)) {
            cutShort(ip);
            layers.push_back(std::move(ip));
            return {0, 0};
        }
        const uint32_t extensionBytes = next == 44 ? 8U : (bytes.at(position + 1)[0] + 1U) * 8U;
        DissectionNode& extension =
            ip.add(protocolName(next), fmt::format("{} bytes", extensionBytes), {}, position, extensionBytes);
        const uint8_t following = bytes.at(position)[0];
        extension.add("Next Header", fmt::format("{} ({})", protocolName(following), following), "ipv6.nxt", position,
                      1);
        if (next == 44 && (bytes.u16(position + 2) & 0xFFF8) != 0) {
            layers.push_back(std::move(ip));
            return {0, 0};  // a later fragment: no TCP header in it
        }
        if (extensionBytes > left) {
            layers.push_back(std::move(ip));
            return {0, 0};
        }
        next = following;
        position += extensionBytes;
        left -= extensionBytes;
    }
    layers.push_back(std::move(ip));
    if (next != kProtocolTcp) {
        return {0, 0};
    }
    return {position, left};
}

}  // namespace

DissectContext dissectContextOf(const Connection& connection, const IndexedPacket& packet) {
    const Side sender = packet.fromServer ? Side::Server : Side::Client;
    return DissectContext{packet.frame, connection.sequence[sideIndex(sender)].baseSeq,
                          connection.sequence[sideIndex(otherSide(sender))].baseSeq};
}

std::vector<DissectionNode> dissectFrame(const FrameBytes& frame, const DissectContext& context) {
    std::vector<DissectionNode> layers;
    const Bytes bytes{frame};
    const auto captured = static_cast<uint32_t>(frame.data.size());
    DissectionNode& summary = layers.emplace_back(
        DissectionNode{fmt::format("Frame {}", context.frameNumber),
                       fmt::format("{} bytes on wire ({} bits), {} bytes captured ({} bits)", frame.originalLength,
                                   uint64_t{frame.originalLength} * 8, captured, uint64_t{captured} * 8),
                       "frame",
                       0,
                       captured,
                       {}});
    summary.add("Frame Number", std::to_string(context.frameNumber), "frame.number");
    summary.add("Frame Length", fmt::format("{} bytes", frame.originalLength), "frame.len");
    summary.add("Capture Length", fmt::format("{} bytes", captured), "frame.cap_len");
    summary.add("Encapsulation type", std::to_string(frame.linkType), "frame.encap_type");
    const NextLayer network = dissectLink(bytes, frame.linkType, layers);
    if (!network.found) {
        return layers;
    }
    std::pair<uint32_t, uint32_t> tcp{0, 0};
    if (network.etherType == ethertype::kIpv4 && bytes.has(network.offset, 1) &&
        (bytes.at(network.offset)[0] >> 4) == 4) {
        tcp = dissectIpv4(bytes, network.offset, layers);
    } else if (network.etherType == ethertype::kIpv6 && bytes.has(network.offset, 1) &&
               (bytes.at(network.offset)[0] >> 4) == 6) {
        tcp = dissectIpv6(bytes, network.offset, layers);
    } else if (!bytes.has(network.offset, 1)) {
        cutShort(layers.back());
    }
    if (tcp.first != 0) {
        dissectTcp(frame, tcp.first, tcp.second, context, layers);
    }
    return layers;
}

}  // namespace tcpscope::dissect
