#include "decode/icmp_decoder.hpp"

#include <algorithm>

#include "decode/byte_order.hpp"

namespace tcpscope {
namespace {

constexpr uint8_t kProtocolTcp = 6;
constexpr uint8_t kIcmpDestinationUnreachable = 3;
constexpr uint8_t kIcmpFragmentationNeeded = 4;  // its code
constexpr uint8_t kIcmpv6DestinationUnreachable = 1;
constexpr uint8_t kIcmpv6PacketTooBig = 2;
constexpr uint32_t kIcmpHeaderBytes = 8;  // type, code, checksum, then the MTU in the last 2 (v4) or 4 (v6)
constexpr uint32_t kQuotedTcpBytes = 8;   // ports and sequence number: what RFC 792 promises at least
constexpr uint32_t kIpv4MinHeaderBytes = 20;
constexpr uint32_t kIpv6HeaderBytes = 40;

// The quoted packet's header: where its TCP header starts (relative to `quoted`), its addresses and
// length. False if it is not a TCP packet, or not captured far enough to hold the TCP ports and
// sequence number.
struct QuotedIp {
    const uint8_t* source = nullptr;
    const uint8_t* destination = nullptr;
    uint32_t tcpOffset = 0;
    uint32_t packetBytes = 0;
};

bool readQuotedIpv4(const uint8_t* quoted, uint32_t available, QuotedIp& ip) {
    if (available < kIpv4MinHeaderBytes || (quoted[0] >> 4) != 4) {
        return false;
    }
    const uint32_t headerBytes = static_cast<uint32_t>(quoted[0] & 0x0F) * 4;
    if (headerBytes < kIpv4MinHeaderBytes || quoted[9] != kProtocolTcp || available < headerBytes + kQuotedTcpBytes) {
        return false;
    }
    ip.source = quoted + 12;
    ip.destination = quoted + 16;
    ip.tcpOffset = headerBytes;
    ip.packetBytes = loadBigEndian16(quoted + 2);
    return true;
}

// Only a TCP header right behind the IPv6 header: a quoted extension header chain is not walked.
bool readQuotedIpv6(const uint8_t* quoted, uint32_t available, QuotedIp& ip) {
    if (available < kIpv6HeaderBytes + kQuotedTcpBytes || (quoted[0] >> 4) != 6 || quoted[6] != kProtocolTcp) {
        return false;
    }
    ip.source = quoted + 8;
    ip.destination = quoted + 24;
    ip.tcpOffset = kIpv6HeaderBytes;
    ip.packetBytes = kIpv6HeaderBytes + loadBigEndian16(quoted + 4);
    return true;
}

IpAddress addressAt(const uint8_t* bytes, uint8_t version) {
    return version == 4 ? IpAddress::fromV4(bytes) : IpAddress::fromV6(bytes);
}

}  // namespace

DecodeStatus decodeIcmpError(const FrameView& frame, const IpLayer& ip, TcpSegment& quoted, PacketTooBig* tooBig,
                             DestinationUnreachable* unreachable) {
    if (ip.transportOffset > frame.capturedLength) {
        return DecodeStatus::NotTcp;
    }
    // What the message holds of itself: the IP length bounds it, the capture may cut it shorter.
    const uint32_t available = std::min(frame.capturedLength - ip.transportOffset, ip.transportLength);
    if (available < kIcmpHeaderBytes) {
        return DecodeStatus::NotTcp;
    }
    const uint8_t* icmp = frame.data + ip.transportOffset;
    const bool isTooBig = ip.version == 4
                              ? icmp[0] == kIcmpDestinationUnreachable && icmp[1] == kIcmpFragmentationNeeded
                              : icmp[0] == kIcmpv6PacketTooBig && icmp[1] == 0;
    const bool isUnreachable =
        !isTooBig && icmp[0] == (ip.version == 4 ? kIcmpDestinationUnreachable : kIcmpv6DestinationUnreachable);
    if (!(isTooBig && tooBig != nullptr) && !(isUnreachable && unreachable != nullptr)) {
        return DecodeStatus::NotTcp;
    }
    QuotedIp inner;
    const uint8_t* quotedPacket = icmp + kIcmpHeaderBytes;
    const uint32_t quotedAvailable = available - kIcmpHeaderBytes;
    const bool readable = ip.version == 4 ? readQuotedIpv4(quotedPacket, quotedAvailable, inner)
                                          : readQuotedIpv6(quotedPacket, quotedAvailable, inner);
    if (!readable) {
        return DecodeStatus::NotTcp;
    }
    const uint8_t* tcp = quotedPacket + inner.tcpOffset;
    quoted = TcpSegment{};
    quoted.source = Endpoint{addressAt(inner.source, ip.version), loadBigEndian16(tcp)};
    quoted.destination = Endpoint{addressAt(inner.destination, ip.version), loadBigEndian16(tcp + 2)};
    quoted.seq = loadBigEndian32(tcp + 4);
    quoted.ipVersion = ip.version;
    if (isUnreachable) {
        unreachable->reporter = addressAt(ip.source, ip.version);
        unreachable->type = icmp[0];
        unreachable->code = icmp[1];
        return DecodeStatus::Unreachable;
    }
    tooBig->reporter = addressAt(ip.source, ip.version);
    tooBig->nextHopMtu = ip.version == 4 ? loadBigEndian16(icmp + 6) : loadBigEndian32(icmp + 4);
    tooBig->quotedPacketBytes = inner.packetBytes;
    return DecodeStatus::PacketTooBig;
}

}  // namespace tcpscope
