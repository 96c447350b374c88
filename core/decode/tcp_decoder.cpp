#include "decode/tcp_decoder.hpp"

#include <algorithm>

#include "decode/byte_order.hpp"
#include "decode/tcp_options.hpp"

namespace tcpscope {
namespace {

constexpr uint32_t kFixedHeaderBytes = 20;

IpAddress addressAt(const uint8_t* bytes, uint8_t version) {
    return version == 4 ? IpAddress::fromV4(bytes) : IpAddress::fromV6(bytes);
}

}  // namespace

DecodeStatus decodeTcp(const FrameView& frame, const IpLayer& ip, TcpSegment& segment) {
    const uint32_t capturedLength = frame.capturedLength;
    if (ip.transportLength < kFixedHeaderBytes) {
        return DecodeStatus::Malformed;
    }
    if (ip.transportOffset > capturedLength || capturedLength - ip.transportOffset < kFixedHeaderBytes) {
        return DecodeStatus::Truncated;
    }
    const uint8_t* tcp = frame.data + ip.transportOffset;
    const uint32_t headerBytes = static_cast<uint32_t>(tcp[12] >> 4) * 4;
    if (headerBytes < kFixedHeaderBytes || headerBytes > ip.transportLength) {
        return DecodeStatus::Malformed;
    }
    const uint32_t capturedTransport = capturedLength - ip.transportOffset;

    segment.source = Endpoint{addressAt(ip.source, ip.version), loadBigEndian16(tcp)};
    segment.destination = Endpoint{addressAt(ip.destination, ip.version), loadBigEndian16(tcp + 2)};
    segment.seq = loadBigEndian32(tcp + 4);
    segment.ack = loadBigEndian32(tcp + 8);
    segment.flags = static_cast<uint16_t>(((tcp[12] & 0x01) << 8) | tcp[13]);
    segment.window = loadBigEndian16(tcp + 14);
    segment.payloadLength = ip.transportLength - headerBytes;
    segment.payloadOffset = ip.transportOffset + headerBytes;
    segment.payloadCaptured =
        capturedTransport > headerBytes ? std::min(capturedTransport - headerBytes, segment.payloadLength) : 0;
    segment.ipVersion = ip.version;
    segment.ttl = ip.ttl;
    segment.ipId = ip.ipId;
    segment.sizeLimited = capturedTransport < ip.transportLength;
    parseTcpOptions(tcp + kFixedHeaderBytes, headerBytes - kFixedHeaderBytes, capturedTransport - kFixedHeaderBytes,
                    segment.options);
    return DecodeStatus::Tcp;
}

}  // namespace tcpscope
