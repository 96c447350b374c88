#include "decode/ipv6_decoder.hpp"

#include "decode/byte_order.hpp"

namespace tcpscope {
namespace {

constexpr uint32_t kHeaderBytes = 40;
constexpr uint32_t kFragmentHeaderBytes = 8;

/// IPv6 next-header values met on the way to TCP.
namespace nextheader {
constexpr uint8_t kHopByHop = 0;
constexpr uint8_t kTcp = 6;
constexpr uint8_t kRouting = 43;
constexpr uint8_t kFragment = 44;
constexpr uint8_t kEsp = 50;
constexpr uint8_t kAuthentication = 51;
constexpr uint8_t kNoNextHeader = 59;
constexpr uint8_t kDestinationOptions = 60;
constexpr uint8_t kMobility = 135;
constexpr uint8_t kIcmpv6 = 58;
/// True for headers behind which a TCP header may still come.
constexpr bool mayLeadToTcp(uint8_t next) {
    switch (next) {
    case kTcp:
    case kHopByHop:
    case kRouting:
    case kFragment:
    case kAuthentication:
    case kDestinationOptions:
    case kMobility:
        return true;
    default:
        return false;
    }
}

// RFC 8200 allows each header once (destination options twice); a longer chain is garbage, and the
// bound keeps the per-packet work constant.
constexpr int kMaxExtensionHeaders = 16;

}  // namespace nextheader

}  // namespace

DecodeStatus decodeIpv6(const FrameView& frame, uint32_t offset, IpLayer& ip) {
    const uint32_t capturedLength = frame.capturedLength;
    if (offset > capturedLength || capturedLength - offset < kHeaderBytes) {
        return DecodeStatus::Truncated;
    }
    const uint8_t* header = frame.data + offset;
    if ((header[0] >> 4) != 6) {
        return DecodeStatus::Malformed;
    }
    uint32_t payloadLength = loadBigEndian16(header + 4);
    if (payloadLength == 0) {
        // A jumbogram, or a BIG TCP / GSO packet captured on the sending host: the length on the wire
        // is the only one there is.
        const uint32_t headersEnd = offset + kHeaderBytes;
        payloadLength = frame.wireLength > headersEnd ? frame.wireLength - headersEnd : 0;
    }
    if (uint64_t{offset} + kHeaderBytes + payloadLength > frame.wireLength) {
        // More than was on the wire (not a snapshot cut): as Wireshark, the packet is what was there.
        payloadLength = frame.wireLength - offset - kHeaderBytes;
    }

    // 64-bit positions: offset + 40 + 65535 cannot wrap whatever the captured length.
    uint8_t next = header[6];
    uint64_t cursor = uint64_t{offset} + kHeaderBytes;  // start of the current extension header
    const uint64_t payloadEnd = cursor + payloadLength;
    for (int count = 0; count < nextheader::kMaxExtensionHeaders; ++count) {
        uint64_t extensionBytes = 0;
        switch (next) {
        case nextheader::kTcp:
        case nextheader::kIcmpv6:
            // ICMPv6 is not TCP, but located: its "packet too big" messages quote TCP segments.
            ip.source = header + 8;
            ip.destination = header + 24;
            ip.transportOffset = static_cast<uint32_t>(cursor);  // cursor <= capturedLength here
            ip.transportLength = static_cast<uint32_t>(payloadEnd - cursor);
            ip.version = 6;
            ip.ttl = header[7];
            ip.ipId = 0;
            ip.protocol = next;
            return next == nextheader::kTcp ? DecodeStatus::Tcp : DecodeStatus::NotTcp;
        case nextheader::kHopByHop:
        case nextheader::kRouting:
        case nextheader::kDestinationOptions:
        case nextheader::kMobility:
        case nextheader::kAuthentication:
        case nextheader::kFragment:
            break;
        case nextheader::kEsp:
        case nextheader::kNoNextHeader:
        default:
            return DecodeStatus::NotTcp;
        }
        // Every extension header starts with next-header and a length byte.
        if (payloadEnd - cursor < 2) {
            return DecodeStatus::Malformed;
        }
        if (capturedLength < cursor + 2) {
            return DecodeStatus::Truncated;
        }
        const uint8_t* extension = frame.data + cursor;
        if (next == nextheader::kFragment) {
            extensionBytes = kFragmentHeaderBytes;
        } else if (next == nextheader::kAuthentication) {
            extensionBytes = (uint64_t{extension[1]} + 2) * 4;  // in 4-byte units, minus 2
        } else {
            extensionBytes = (uint64_t{extension[1]} + 1) * 8;  // in 8-byte units, minus 1
        }
        if (payloadEnd - cursor < extensionBytes) {
            return DecodeStatus::Malformed;
        }
        if (capturedLength < cursor + extensionBytes) {
            return DecodeStatus::Truncated;
        }
        if (next == nextheader::kFragment) {
            const uint16_t offsetAndFlags = loadBigEndian16(extension + 2);
            const bool moreFragments = (offsetAndFlags & 0x0001) != 0;
            const bool atStart = (offsetAndFlags & 0xFFF8) == 0;
            if (moreFragments || !atStart) {
                // What follows is a TCP segment only after reassembly. The first header of the
                // fragmentable part tells whether it can be TCP at all.
                return nextheader::mayLeadToTcp(extension[0]) ? DecodeStatus::Fragment : DecodeStatus::NotTcp;
            }
        }
        next = extension[0];
        cursor += extensionBytes;
    }
    return DecodeStatus::Malformed;
}

}  // namespace tcpscope
