#include "decode/ipv4_decoder.hpp"

#include "decode/byte_order.hpp"

namespace tcpscope {
namespace {

constexpr uint32_t kMinHeaderBytes = 20;
constexpr uint8_t kProtocolTcp = 6;
constexpr uint8_t kProtocolIcmp = 1;
constexpr uint16_t kMoreFragments = 0x2000;
constexpr uint16_t kFragmentOffsetMask = 0x1FFF;

}  // namespace

DecodeStatus decodeIpv4(const FrameView& frame, uint32_t offset, IpLayer& ip) {
    const uint32_t capturedLength = frame.capturedLength;
    if (offset > capturedLength || capturedLength - offset < kMinHeaderBytes) {
        return DecodeStatus::Truncated;
    }
    const uint8_t* header = frame.data + offset;
    if ((header[0] >> 4) != 4) {
        return DecodeStatus::Malformed;
    }
    const uint32_t headerBytes = static_cast<uint32_t>(header[0] & 0x0F) * 4;
    if (headerBytes < kMinHeaderBytes) {
        return DecodeStatus::Malformed;
    }
    uint32_t totalLength = loadBigEndian16(header + 2);
    if (totalLength == 0) {
        // Captured on the sending host before TCP segmentation offload split the packet: the stack
        // leaves the length 0. Like Wireshark, take the length on the wire instead.
        totalLength = frame.wireLength > offset ? frame.wireLength - offset : 0;
    }
    if (totalLength > frame.wireLength - offset) {
        // The header claims more than was on the wire (not a snapshot cut: the frame was that
        // short). Like Wireshark ("IPv4 total length exceeds packet length"), the packet is what
        // was there.
        totalLength = frame.wireLength - offset;
    }
    if (totalLength < headerBytes) {
        return DecodeStatus::Malformed;
    }
    if (capturedLength - offset < headerBytes) {
        return DecodeStatus::Truncated;
    }
    const uint8_t protocol = header[9];
    if (protocol != kProtocolTcp && protocol != kProtocolIcmp) {
        return DecodeStatus::NotTcp;
    }
    const uint16_t flagsAndOffset = loadBigEndian16(header + 6);
    if ((flagsAndOffset & (kMoreFragments | kFragmentOffsetMask)) != 0) {
        return protocol == kProtocolTcp ? DecodeStatus::Fragment : DecodeStatus::NotTcp;
    }
    ip.protocol = protocol;
    ip.source = header + 12;
    ip.destination = header + 16;
    ip.transportOffset = offset + headerBytes;
    ip.transportLength = totalLength - headerBytes;
    ip.version = 4;
    ip.ttl = header[8];
    ip.ipId = loadBigEndian16(header + 4);
    // ICMP is located (its messages may quote a TCP segment) but is not TCP.
    return protocol == kProtocolTcp ? DecodeStatus::Tcp : DecodeStatus::NotTcp;
}

}  // namespace tcpscope
