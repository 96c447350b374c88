#include "support/packet_builder.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <initializer_list>
#include <stdexcept>

namespace tcpscope::test {
namespace {

constexpr uint8_t kIpv6HopByHop = 0;
constexpr uint8_t kIpv6Routing = 43;
constexpr uint8_t kIpv6Fragment = 44;
constexpr uint8_t kIpv6Auth = 51;
constexpr uint8_t kIpv6DestOptions = 60;
constexpr uint8_t kIcmpProtocol = 1;
constexpr uint8_t kIcmpv6Protocol = 58;
constexpr size_t kIpv4HeaderBytes = 20;
constexpr size_t kIpv6HeaderBytes = 40;
constexpr size_t kTcpHeaderBytes = 20;
constexpr size_t kMaxTcpOptionBytes = 40;

void putU16(std::vector<uint8_t>& out, uint16_t value) {
    out.push_back(static_cast<uint8_t>(value >> 8));
    out.push_back(static_cast<uint8_t>(value));
}

void putU32(std::vector<uint8_t>& out, uint32_t value) {
    putU16(out, static_cast<uint16_t>(value >> 16));
    putU16(out, static_cast<uint16_t>(value));
}

// Byte-wise appends: GCC 12 at -O3 reports false overflows for vector::insert of an initializer list.
void appendBytes(std::vector<uint8_t>& out, std::initializer_list<uint8_t> bytes) {
    for (const uint8_t byte : bytes) {
        out.push_back(byte);
    }
}

void setU16(std::vector<uint8_t>& out, size_t offset, uint16_t value) {
    out.at(offset) = static_cast<uint8_t>(value >> 8);
    out.at(offset + 1) = static_cast<uint8_t>(value);
}

uint16_t getU16(const std::vector<uint8_t>& in, size_t offset) {
    return static_cast<uint16_t>((in.at(offset) << 8) | in.at(offset + 1));
}

void putLittleU16(std::vector<uint8_t>& out, uint16_t value) {
    out.push_back(static_cast<uint8_t>(value));
    out.push_back(static_cast<uint8_t>(value >> 8));
}

void putLittleU32(std::vector<uint8_t>& out, uint32_t value) {
    putLittleU16(out, static_cast<uint16_t>(value));
    putLittleU16(out, static_cast<uint16_t>(value >> 16));
}

/// Ones' complement sum of big-endian 16-bit words, not yet folded.
uint32_t sumWords(const uint8_t* data, size_t length, uint32_t sum = 0) {
    for (size_t i = 0; i + 1 < length; i += 2) {
        sum += static_cast<uint32_t>((data[i] << 8) | data[i + 1]);
    }
    if (length % 2 != 0) {
        sum += static_cast<uint32_t>(data[length - 1] << 8);
    }
    return sum;
}

uint16_t foldChecksum(uint32_t sum) {
    while ((sum >> 16) != 0) {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

struct ParsedAddress {
    bool isV6 = false;
    std::array<uint8_t, 16> bytes{};
    [[nodiscard]] size_t size() const { return isV6 ? 16 : 4; }
};

ParsedAddress parseAddress(const std::string& text) {
    ParsedAddress address;
    address.isV6 = text.find(':') != std::string::npos;
    if (inet_pton(address.isV6 ? AF_INET6 : AF_INET, text.c_str(), address.bytes.data()) != 1) {
        throw std::invalid_argument("packet_builder: not an IP address: " + text);
    }
    return address;
}

void appendPadded(std::vector<uint8_t>& out, const std::vector<uint8_t>& bytes, size_t unit) {
    out.insert(out.end(), bytes.begin(), bytes.end());
    while (out.size() % unit != 0) {
        out.push_back(0);
    }
}

std::vector<uint8_t> encodeTcpOptions(const SegmentSpec& spec) {
    const TcpOptions& options = spec.options;
    std::vector<uint8_t> out;
    if (options.mss != 0) {
        appendBytes(out, {2, 4});
        putU16(out, options.mss);
    }
    // The Linux SYN layout: SACK-permitted shares its word with the timestamp option.
    if (options.sackPermitted && options.hasTimestamp) {
        appendBytes(out, {4, 2});
    } else if (options.sackPermitted) {
        appendBytes(out, {1, 1, 4, 2});
    } else if (options.hasTimestamp) {
        appendBytes(out, {1, 1});
    }
    if (options.hasTimestamp) {
        appendBytes(out, {8, 10});
        putU32(out, options.tsVal);
        putU32(out, options.tsEcr);
    }
    if (options.windowScale >= 0) {
        appendBytes(out, {1, 3, 3, static_cast<uint8_t>(options.windowScale)});
    }
    if (options.sackCount > 0) {
        const size_t count = std::min<size_t>(options.sackCount, options.sack.size());
        appendBytes(out, {1, 1, 5, static_cast<uint8_t>(2 + 8 * count)});
        for (size_t i = 0; i < count; ++i) {
            putU32(out, options.sack[i].left);
            putU32(out, options.sack[i].right);
        }
    }
    appendPadded(out, spec.extraTcpOptions, 4);
    if (out.size() > kMaxTcpOptionBytes) {
        throw std::invalid_argument("packet_builder: TCP options longer than 40 bytes");
    }
    return out;
}

std::vector<uint8_t> payloadOf(const SegmentSpec& spec) {
    if (!spec.payload.empty()) {
        return spec.payload;
    }
    std::vector<uint8_t> payload(spec.payloadLength);
    for (uint32_t i = 0; i < spec.payloadLength; ++i) {
        payload[i] = payloadByte(i);
    }
    return payload;
}

/// TCP header, options and payload, with the checksum over the pseudo header.
std::vector<uint8_t> buildTcp(const SegmentSpec& spec, const ParsedAddress& source, const ParsedAddress& destination) {
    const std::vector<uint8_t> options = encodeTcpOptions(spec);
    const std::vector<uint8_t> payload = payloadOf(spec);
    std::vector<uint8_t> tcp;
    tcp.reserve(kTcpHeaderBytes + options.size() + payload.size());
    putU16(tcp, spec.sourcePort);
    putU16(tcp, spec.destinationPort);
    putU32(tcp, spec.seq);
    putU32(tcp, spec.ack);
    const auto dataOffsetWords = static_cast<uint8_t>((kTcpHeaderBytes + options.size()) / 4);
    tcp.push_back(static_cast<uint8_t>((dataOffsetWords << 4) | ((spec.flags >> 8) & 0x01)));
    tcp.push_back(static_cast<uint8_t>(spec.flags));
    putU16(tcp, spec.window);
    putU16(tcp, 0);  // checksum, below
    putU16(tcp, 0);  // urgent pointer
    tcp.insert(tcp.end(), options.begin(), options.end());
    tcp.insert(tcp.end(), payload.begin(), payload.end());

    uint32_t sum = sumWords(source.bytes.data(), source.size());
    sum = sumWords(destination.bytes.data(), destination.size(), sum);
    sum += spec.ipProtocol;
    sum += static_cast<uint32_t>(tcp.size() & 0xFFFF) + static_cast<uint32_t>(tcp.size() >> 16);
    setU16(tcp, 16, foldChecksum(sumWords(tcp.data(), tcp.size(), sum)));
    return tcp;
}

void setIpv4Checksum(std::vector<uint8_t>& packet) {
    const size_t headerBytes = static_cast<size_t>(packet.at(0) & 0x0F) * 4;
    setU16(packet, 10, 0);
    setU16(packet, 10, foldChecksum(sumWords(packet.data(), headerBytes)));
}

std::vector<uint8_t> buildIpv4(const SegmentSpec& spec, const ParsedAddress& source, const ParsedAddress& destination,
                               const std::vector<uint8_t>& tcp) {
    std::vector<uint8_t> options;
    appendPadded(options, spec.ipv4Options, 4);
    if (options.size() > 40) {
        throw std::invalid_argument("packet_builder: IPv4 options longer than 40 bytes");
    }
    const size_t headerBytes = kIpv4HeaderBytes + options.size();
    std::vector<uint8_t> packet;
    packet.reserve(headerBytes + tcp.size());
    packet.push_back(static_cast<uint8_t>(0x40 | (headerBytes / 4)));
    packet.push_back(0);  // DSCP / ECN
    putU16(packet, spec.ipLengthOverride.value_or(static_cast<uint16_t>(headerBytes + tcp.size())));
    putU16(packet, spec.ipId);
    putU16(packet, 0x4000);  // DF, as Linux sends TCP
    packet.push_back(spec.ttl);
    packet.push_back(spec.ipProtocol);
    putU16(packet, 0);
    packet.insert(packet.end(), source.bytes.begin(), source.bytes.begin() + 4);
    packet.insert(packet.end(), destination.bytes.begin(), destination.bytes.begin() + 4);
    packet.insert(packet.end(), options.begin(), options.end());
    setIpv4Checksum(packet);
    packet.insert(packet.end(), tcp.begin(), tcp.end());
    return packet;
}

/// Extension header bytes with `nextHeader` and the length field filled in.
std::vector<uint8_t> encodeExtension(const Ipv6Extension& extension, uint8_t nextHeader) {
    std::vector<uint8_t> out{nextHeader, 0};
    if (extension.type == kIpv6Fragment) {
        // Fixed 8 bytes; its second byte is reserved, not a length.
        std::vector<uint8_t> body = extension.body;
        body.resize(6, 0);
        out.insert(out.end(), body.begin(), body.end());
        return out;
    }
    const size_t unit = extension.type == kIpv6Auth ? 4 : 8;
    appendPadded(out, extension.body, 8);
    if (out.size() < 8) {
        out.resize(8, 0);
    }
    out[1] = static_cast<uint8_t>(extension.type == kIpv6Auth ? out.size() / unit - 2 : out.size() / unit - 1);
    return out;
}

std::vector<uint8_t> buildIpv6(const SegmentSpec& spec, const ParsedAddress& source, const ParsedAddress& destination,
                               const std::vector<uint8_t>& tcp) {
    std::vector<uint8_t> extensions;
    for (size_t i = 0; i < spec.ipv6Extensions.size(); ++i) {
        const uint8_t next = i + 1 < spec.ipv6Extensions.size() ? spec.ipv6Extensions[i + 1].type : spec.ipProtocol;
        const std::vector<uint8_t> encoded = encodeExtension(spec.ipv6Extensions[i], next);
        extensions.insert(extensions.end(), encoded.begin(), encoded.end());
    }
    const uint8_t firstNext = spec.ipv6Extensions.empty() ? spec.ipProtocol : spec.ipv6Extensions.front().type;
    std::vector<uint8_t> packet;
    packet.reserve(kIpv6HeaderBytes + extensions.size() + tcp.size());
    putU32(packet, 0x60000000);
    putU16(packet, spec.ipLengthOverride.value_or(static_cast<uint16_t>(extensions.size() + tcp.size())));
    packet.push_back(firstNext);
    packet.push_back(spec.ttl);
    packet.insert(packet.end(), source.bytes.begin(), source.bytes.end());
    packet.insert(packet.end(), destination.bytes.begin(), destination.bytes.end());
    packet.insert(packet.end(), extensions.begin(), extensions.end());
    packet.insert(packet.end(), tcp.begin(), tcp.end());
    return packet;
}

std::vector<std::vector<uint8_t>> fragmentIpv4(const std::vector<uint8_t>& packet, uint32_t chunkBytes,
                                               uint32_t identification) {
    const size_t headerBytes = static_cast<size_t>(packet.at(0) & 0x0F) * 4;
    const size_t totalBytes = std::min<size_t>(getU16(packet, 2), packet.size());
    std::vector<std::vector<uint8_t>> fragments;
    for (size_t offset = headerBytes; offset < totalBytes; offset += chunkBytes) {
        const size_t end = std::min<size_t>(offset + chunkBytes, totalBytes);
        std::vector<uint8_t> fragment(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(headerBytes));
        fragment.insert(fragment.end(), packet.begin() + static_cast<std::ptrdiff_t>(offset),
                        packet.begin() + static_cast<std::ptrdiff_t>(end));
        setU16(fragment, 2, static_cast<uint16_t>(fragment.size()));
        setU16(fragment, 4, static_cast<uint16_t>(identification));
        const auto offsetUnits = static_cast<uint16_t>((offset - headerBytes) / 8);
        setU16(fragment, 6, static_cast<uint16_t>(offsetUnits | (end < totalBytes ? 0x2000 : 0)));
        setIpv4Checksum(fragment);
        fragments.push_back(std::move(fragment));
    }
    return fragments;
}

std::vector<std::vector<uint8_t>> fragmentIpv6(const std::vector<uint8_t>& packet, uint32_t chunkBytes,
                                               uint32_t identification) {
    // The unfragmentable part ends after the last hop-by-hop or routing header (RFC 8200 section 4.5).
    size_t unfragmentableEnd = kIpv6HeaderBytes;
    size_t offset = kIpv6HeaderBytes;
    uint8_t next = packet.at(6);
    size_t lastNextHeaderOffset = 6;
    while (next == kIpv6HopByHop || next == kIpv6Routing || next == kIpv6DestOptions) {
        const size_t length = (static_cast<size_t>(packet.at(offset + 1)) + 1) * 8;
        if (next != kIpv6DestOptions) {
            unfragmentableEnd = offset + length;
            lastNextHeaderOffset = offset;
        }
        next = packet.at(offset);
        offset += length;
    }
    const size_t totalBytes = std::min<size_t>(kIpv6HeaderBytes + getU16(packet, 4), packet.size());
    const uint8_t fragmentableNext = packet.at(lastNextHeaderOffset);
    std::vector<std::vector<uint8_t>> fragments;
    for (size_t start = unfragmentableEnd; start < totalBytes; start += chunkBytes) {
        const size_t end = std::min<size_t>(start + chunkBytes, totalBytes);
        std::vector<uint8_t> fragment(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(unfragmentableEnd));
        fragment.at(lastNextHeaderOffset) = kIpv6Fragment;
        const auto offsetBytes = static_cast<uint32_t>(start - unfragmentableEnd);
        fragment.push_back(fragmentableNext);
        fragment.push_back(0);
        putU16(fragment, static_cast<uint16_t>(offsetBytes | (end < totalBytes ? 1 : 0)));
        putU32(fragment, identification);
        fragment.insert(fragment.end(), packet.begin() + static_cast<std::ptrdiff_t>(start),
                        packet.begin() + static_cast<std::ptrdiff_t>(end));
        setU16(fragment, 4, static_cast<uint16_t>(fragment.size() - kIpv6HeaderBytes));
        fragments.push_back(std::move(fragment));
    }
    return fragments;
}

uint32_t defaultAddressFamily(uint32_t linkType, bool isV6) {
    if (!isV6) {
        return 2;
    }
    return linkType == linktype::kLoop ? 24 : 30;
}

}  // namespace

Ipv6Extension Ipv6Extension::hopByHop() { return {kIpv6HopByHop, {1, 4, 0, 0, 0, 0}}; }

Ipv6Extension Ipv6Extension::destinationOptions() { return {kIpv6DestOptions, {1, 4, 0, 0, 0, 0}}; }

Ipv6Extension Ipv6Extension::routing() { return {kIpv6Routing, {0, 0, 0, 0, 0, 0}}; }

Ipv6Extension Ipv6Extension::fragment(uint32_t offsetBytes, bool moreFragments, uint32_t identification) {
    if (offsetBytes % 8 != 0) {
        throw std::invalid_argument("packet_builder: IPv6 fragment offset must be a multiple of 8");
    }
    const auto offsetAndFlag = static_cast<uint16_t>(offsetBytes | (moreFragments ? 1 : 0));
    std::vector<uint8_t> body{static_cast<uint8_t>(offsetAndFlag >> 8), static_cast<uint8_t>(offsetAndFlag)};
    putU32(body, identification);
    return {kIpv6Fragment, body};
}

Ipv6Extension Ipv6Extension::authentication() {
    // After next-header and length: 2 reserved bytes, SPI, sequence number, a 4-byte ICV (16 bytes in all).
    return {kIpv6Auth, {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0xAA, 0xBB, 0xCC, 0xDD}};
}

uint8_t payloadByte(uint32_t index) { return static_cast<uint8_t>('a' + index % 26); }

std::vector<uint8_t> buildIpPacket(const SegmentSpec& spec) {
    const ParsedAddress source = parseAddress(spec.source);
    const ParsedAddress destination = parseAddress(spec.destination);
    if (source.isV6 != destination.isV6) {
        throw std::invalid_argument("packet_builder: mixed IPv4 and IPv6 addresses");
    }
    const std::vector<uint8_t> tcp = buildTcp(spec, source, destination);
    return source.isV6 ? buildIpv6(spec, source, destination, tcp) : buildIpv4(spec, source, destination, tcp);
}

std::vector<uint8_t> wrapInLink(const std::vector<uint8_t>& ipPacket, uint32_t linkType, const LinkOptions& link) {
    const bool isV6 = !ipPacket.empty() && (ipPacket[0] >> 4) == 6;
    const uint16_t etherType = isV6 ? 0x86DD : 0x0800;
    std::vector<uint8_t> frame;
    frame.reserve(ipPacket.size() + 64);
    switch (linkType) {
    case linktype::kEthernet:
        appendBytes(frame, {0x00, 0x00, 0x5E, 0x00, 0x53, 0x02, 0x00, 0x00, 0x5E, 0x00, 0x53, 0x01});
        for (const VlanTag& tag : link.vlanTags) {
            putU16(frame, tag.tpid);
            putU16(frame, static_cast<uint16_t>((tag.priority << 13) | (tag.vlanId & 0x0FFF)));
        }
        putU16(frame, etherType);
        break;
    case linktype::kNull: {
        const uint32_t family = link.addressFamily != 0 ? link.addressFamily : defaultAddressFamily(linkType, isV6);
        if (link.nullBigEndian) {
            putU32(frame, family);
        } else {
            putLittleU32(frame, family);
        }
        break;
    }
    case linktype::kLoop:
        putU32(frame, link.addressFamily != 0 ? link.addressFamily : defaultAddressFamily(linkType, isV6));
        break;
    case linktype::kLinuxSll:
        putU16(frame, link.sllPacketType);
        putU16(frame, 1);  // ARPHRD_ETHER
        putU16(frame, 6);
        appendBytes(frame, {0x00, 0x00, 0x5E, 0x00, 0x53, 0x01, 0x00, 0x00});
        putU16(frame, etherType);
        break;
    case linktype::kLinuxSll2:
        putU16(frame, etherType);
        putU16(frame, 0);
        putU32(frame, 2);  // interface index
        putU16(frame, 1);  // ARPHRD_ETHER
        frame.push_back(static_cast<uint8_t>(link.sllPacketType));
        frame.push_back(6);
        appendBytes(frame, {0x00, 0x00, 0x5E, 0x00, 0x53, 0x01, 0x00, 0x00});
        break;
    case linktype::kRaw:
    case linktype::kIpv4:
    case linktype::kIpv6:
    case 12:
    case 14:
        break;
    default:
        throw std::invalid_argument("packet_builder: cannot build link type " + std::to_string(linkType));
    }
    frame.insert(frame.end(), ipPacket.begin(), ipPacket.end());
    if (linkType == linktype::kEthernet && link.padToEthernetMinimum && frame.size() < 60) {
        frame.resize(60, 0);
    }
    return frame;
}

namespace {

// An ICMP (ICMPv6 when `router` is IPv6) error of `type` and `code` from `router` to the sender of
// `refused`, its second 4 bytes `rest`, quoting the first `quotedBytes` of the refused IP packet.
std::vector<uint8_t> buildIcmpError(const SegmentSpec& refused, const std::string& router, uint8_t type, uint8_t code,
                                    uint32_t rest, uint32_t quotedBytes) {
    std::vector<uint8_t> quoted = buildIpPacket(refused);
    quoted.resize(std::min<size_t>(quoted.size(), quotedBytes));
    const ParsedAddress source = parseAddress(router);
    const ParsedAddress destination = parseAddress(refused.source);
    std::vector<uint8_t> icmp;
    uint32_t sum = 0;
    appendBytes(icmp, {type, code, 0, 0});  // checksum below
    putU32(icmp, rest);
    icmp.insert(icmp.end(), quoted.begin(), quoted.end());
    if (source.isV6) {
        // ICMPv6's checksum covers the pseudo header too.
        sum = sumWords(source.bytes.data(), source.size());
        sum = sumWords(destination.bytes.data(), destination.size(), sum);
        sum += kIcmpv6Protocol + static_cast<uint32_t>(icmp.size());
    }
    setU16(icmp, 2, foldChecksum(sumWords(icmp.data(), icmp.size(), sum)));

    std::vector<uint8_t> packet;
    if (source.isV6) {
        putU32(packet, 0x60000000);
        putU16(packet, static_cast<uint16_t>(icmp.size()));
        packet.push_back(kIcmpv6Protocol);
        packet.push_back(64);
        packet.insert(packet.end(), source.bytes.begin(), source.bytes.end());
        packet.insert(packet.end(), destination.bytes.begin(), destination.bytes.end());
    } else {
        packet.push_back(0x45);
        packet.push_back(0xC0);  // DSCP CS6, as Linux sends ICMP errors
        putU16(packet, static_cast<uint16_t>(kIpv4HeaderBytes + icmp.size()));
        putU16(packet, 0);  // identification
        putU16(packet, 0);  // no flags: an ICMP error may be fragmented
        packet.push_back(64);
        packet.push_back(kIcmpProtocol);
        putU16(packet, 0);
        packet.insert(packet.end(), source.bytes.begin(), source.bytes.begin() + 4);
        packet.insert(packet.end(), destination.bytes.begin(), destination.bytes.begin() + 4);
        setIpv4Checksum(packet);
    }
    packet.insert(packet.end(), icmp.begin(), icmp.end());
    return packet;
}

}  // namespace

std::vector<uint8_t> buildPacketTooBig(const SegmentSpec& refused, const std::string& router, uint32_t nextHopMtu,
                                       uint32_t quotedBytes) {
    // ICMPv6 "packet too big" (type 2) carries the MTU in all 4 bytes; ICMP "fragmentation needed"
    // (type 3 code 4) in the last 2, after 2 unused.
    return parseAddress(router).isV6 ? buildIcmpError(refused, router, 2, 0, nextHopMtu, quotedBytes)
                                     : buildIcmpError(refused, router, 3, 4, nextHopMtu & 0xFFFF, quotedBytes);
}

std::vector<uint8_t> buildDestinationUnreachable(const SegmentSpec& refused, const std::string& router, uint8_t code,
                                                 uint32_t quotedBytes) {
    return buildIcmpError(refused, router, parseAddress(router).isV6 ? 1 : 3, code, 0, quotedBytes);
}

std::vector<uint8_t> buildFrame(const SegmentSpec& spec, uint32_t linkType, const LinkOptions& link) {
    return wrapInLink(buildIpPacket(spec), linkType, link);
}

std::vector<uint8_t> buildNonIpEthernetFrame(uint16_t etherType, const std::vector<uint8_t>& payload) {
    std::vector<uint8_t> frame{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x5E, 0x00, 0x53, 0x01};
    putU16(frame, etherType);
    frame.insert(frame.end(), payload.begin(), payload.end());
    return frame;
}

std::vector<std::vector<uint8_t>> fragmentIpPacket(const std::vector<uint8_t>& ipPacket,
                                                   uint32_t fragmentPayloadBytes, uint32_t identification) {
    const uint32_t chunkBytes = fragmentPayloadBytes / 8 * 8;
    if (chunkBytes == 0 || ipPacket.empty()) {
        throw std::invalid_argument("packet_builder: fragments need at least 8 bytes and a packet");
    }
    return (ipPacket[0] >> 4) == 6 ? fragmentIpv6(ipPacket, chunkBytes, identification)
                                   : fragmentIpv4(ipPacket, chunkBytes, identification);
}

std::vector<uint8_t> cutToSnaplen(const std::vector<uint8_t>& frame, uint32_t snaplen) {
    return {frame.begin(), frame.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(snaplen, frame.size()))};
}

RawPacket asRaw(const std::vector<uint8_t>& frame, int64_t tsNs, uint32_t linkType, uint32_t originalLength) {
    RawPacket packet;
    packet.tsNs = tsNs;
    packet.capturedLength = static_cast<uint32_t>(frame.size());
    packet.originalLength = originalLength != 0 ? originalLength : static_cast<uint32_t>(frame.size());
    packet.linkType = linkType;
    packet.data = frame.data();
    return packet;
}

RawPacket BuiltPacket::raw() const { return asRaw(bytes, tsNs, linkType, originalLength); }

BuiltPacket buildPacket(const SegmentSpec& spec, int64_t tsNs, uint32_t linkType, const LinkOptions& link) {
    return BuiltPacket{buildFrame(spec, linkType, link), tsNs, linkType, 0};
}

}  // namespace tcpscope::test
