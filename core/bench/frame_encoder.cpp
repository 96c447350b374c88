#include "bench/frame_encoder.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace tcpscope::bench {

namespace {

constexpr uint32_t kEthernetBytes = 14;
constexpr uint32_t kIpv4Bytes = 20;
constexpr uint32_t kMaxHeaderBytes = kEthernetBytes + kIpv4Bytes + 40;

// What payloads are made of: readable text, sent to server ports tshark has no dissector for
// (see the workloads), so tshark treats it as opaque data, as tcpscope does.
const std::array<uint8_t, 65536>& payloadPattern() {
    static const std::array<uint8_t, 65536> pattern = [] {
        std::array<uint8_t, 65536> bytes{};
        static constexpr char kText[] = "tcpscope benchmark payload, opaque application bytes; ";
        for (size_t i = 0; i < bytes.size(); ++i) {
            bytes[i] = static_cast<uint8_t>(kText[i % (sizeof(kText) - 1)]);
        }
        return bytes;
    }();
    return pattern;
}

uint8_t* put16(uint8_t* out, uint16_t value) {
    out[0] = static_cast<uint8_t>(value >> 8);
    out[1] = static_cast<uint8_t>(value);
    return out + 2;
}

uint8_t* put32(uint8_t* out, uint32_t value) {
    out[0] = static_cast<uint8_t>(value >> 24);
    out[1] = static_cast<uint8_t>(value >> 16);
    out[2] = static_cast<uint8_t>(value >> 8);
    out[3] = static_cast<uint8_t>(value);
    return out + 4;
}

uint32_t optionBytes(SegmentOptions options) {
    switch (options) {
        case SegmentOptions::None:
            return 0;
        case SegmentOptions::Timestamps:
            return 12;
        case SegmentOptions::Syn:
            return 20;
        case SegmentOptions::SynNoTs:
            return 12;
    }
    return 0;
}

// A locally administered MAC derived from the IPv4 address, so each host keeps one MAC.
uint8_t* putMac(uint8_t* out, uint32_t ip) {
    out[0] = 0x02;
    out[1] = 0x00;
    return put32(out + 2, ip);
}

uint8_t* putOptions(uint8_t* out, const PlannedSegment& segment) {
    switch (segment.options) {
        case SegmentOptions::None:
            return out;
        case SegmentOptions::Timestamps:
            *out++ = 1;
            *out++ = 1;
            *out++ = 8;
            *out++ = 10;
            out = put32(out, segment.tsVal);
            return put32(out, segment.tsEcr);
        case SegmentOptions::Syn:
            *out++ = 2;  // MSS
            *out++ = 4;
            out = put16(out, segment.mss);
            *out++ = 4;  // SACK permitted
            *out++ = 2;
            *out++ = 8;  // timestamps
            *out++ = 10;
            out = put32(out, segment.tsVal);
            out = put32(out, segment.tsEcr);
            *out++ = 1;  // NOP
            *out++ = 3;  // window scale
            *out++ = 3;
            *out++ = segment.windowScale;
            return out;
        case SegmentOptions::SynNoTs:
            *out++ = 2;
            *out++ = 4;
            out = put16(out, segment.mss);
            *out++ = 1;
            *out++ = 1;
            *out++ = 4;
            *out++ = 2;
            *out++ = 1;
            *out++ = 3;
            *out++ = 3;
            *out++ = segment.windowScale;
            return out;
    }
    return out;
}

uint16_t ipv4Checksum(const uint8_t* header) {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < kIpv4Bytes; i += 2) {
        sum += static_cast<uint32_t>(header[i] << 8 | header[i + 1]);
    }
    while (sum > 0xffff) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum);
}

}  // namespace

uint32_t headerBytes(const PlannedSegment& segment) {
    return kEthernetBytes + kIpv4Bytes + 20 + optionBytes(segment.options);
}

void writeFrame(const PlannedSegment& segment, PcapFileWriter& writer) {
    const uint32_t tcpBytes = 20 + optionBytes(segment.options);
    const uint32_t headers = kEthernetBytes + kIpv4Bytes + tcpBytes;
    const uint32_t frameBytes = headers + segment.payloadBytes;
    const uint32_t capturedBytes = std::min(frameBytes, writer.snaplen());

    // Headers are assembled on the stack so a snapshot length shorter than them still works.
    std::array<uint8_t, kMaxHeaderBytes> header{};
    uint8_t* out = header.data();
    out = putMac(out, segment.destinationIp);
    out = putMac(out, segment.sourceIp);
    out = put16(out, 0x0800);

    uint8_t* ip = out;
    *out++ = 0x45;
    *out++ = 0;
    out = put16(out, static_cast<uint16_t>(kIpv4Bytes + tcpBytes + segment.payloadBytes));
    out = put16(out, segment.ipId);
    out = put16(out, 0x4000);  // don't fragment
    *out++ = 64;
    *out++ = 6;
    out = put16(out, 0);
    out = put32(out, segment.sourceIp);
    out = put32(out, segment.destinationIp);
    put16(ip + 10, ipv4Checksum(ip));

    out = put16(out, segment.sourcePort);
    out = put16(out, segment.destinationPort);
    out = put32(out, segment.seq);
    out = put32(out, (segment.flags & tcpflag::kAck) != 0 ? segment.ack : 0);
    *out++ = static_cast<uint8_t>((tcpBytes / 4) << 4);
    *out++ = segment.flags;
    out = put16(out, segment.window);
    out = put16(out, 0);  // checksum
    out = put16(out, 0);  // urgent pointer
    putOptions(out, segment);

    uint8_t* record = writer.beginRecord(segment.tsNs, capturedBytes, frameBytes);
    const uint32_t headerPart = std::min(headers, capturedBytes);
    std::memcpy(record, header.data(), headerPart);
    if (capturedBytes > headers) {
        // Payload offsets follow the sequence number, so a retransmission repeats the same bytes.
        const auto& pattern = payloadPattern();
        uint32_t remaining = capturedBytes - headers;
        uint8_t* payload = record + headers;
        size_t offset = segment.seq % 4096;
        while (remaining > 0) {
            const uint32_t piece = std::min<uint32_t>(remaining, static_cast<uint32_t>(pattern.size() - offset));
            std::memcpy(payload, pattern.data() + offset, piece);
            payload += piece;
            remaining -= piece;
            offset = 0;
        }
    }
}

}  // namespace tcpscope::bench
