#include "decode/packet_decoder.hpp"

#include <algorithm>

#include "decode/frame_view.hpp"
#include "decode/icmp_decoder.hpp"
#include "decode/ip_layer.hpp"
#include "decode/ipv4_decoder.hpp"
#include "decode/ipv6_decoder.hpp"
#include "decode/link_decoder.hpp"
#include "decode/tcp_decoder.hpp"

namespace tcpscope {

DecodeStatus decodePacket(const RawPacket& packet, TcpSegment& segment, PacketTooBig* tooBig,
                          DestinationUnreachable* unreachable) {
    const uint32_t capturedLength = packet.data != nullptr ? packet.capturedLength : 0;
    // Some writers store the captured length as the original one; the frame can never be shorter.
    const FrameView frame{packet.data, capturedLength, std::max(packet.originalLength, capturedLength)};
    const LinkLayer link = decodeLink(frame, packet.linkType);
    switch (link.status) {
    case LinkStatus::Ip:
        break;
    case LinkStatus::NotIp:
        return DecodeStatus::NotTcp;
    case LinkStatus::Unsupported:
        return DecodeStatus::UnsupportedLink;
    case LinkStatus::Truncated:
        return DecodeStatus::Truncated;
    case LinkStatus::Malformed:
        return DecodeStatus::Malformed;
    }
    IpLayer ip;
    const DecodeStatus ipStatus = link.ipVersion == 4 ? decodeIpv4(frame, link.networkOffset, ip)
                                                      : decodeIpv6(frame, link.networkOffset, ip);
    if (ipStatus == DecodeStatus::NotTcp && (tooBig != nullptr || unreachable != nullptr) && ip.protocol != 0) {
        return decodeIcmpError(frame, ip, segment, tooBig, unreachable);
    }
    if (ipStatus != DecodeStatus::Tcp) {
        return ipStatus;
    }
    return decodeTcp(frame, ip, segment);
}

std::string_view decodeStatusName(DecodeStatus status) {
    switch (status) {
    case DecodeStatus::Tcp:
        return "tcp";
    case DecodeStatus::NotTcp:
        return "not-tcp";
    case DecodeStatus::PacketTooBig:
        return "packet-too-big";
    case DecodeStatus::Unreachable:
        return "unreachable";
    case DecodeStatus::Fragment:
        return "fragment";
    case DecodeStatus::UnsupportedLink:
        return "unsupported-link";
    case DecodeStatus::Malformed:
        return "malformed";
    case DecodeStatus::Truncated:
        return "truncated";
    }
    return "unknown";
}

}  // namespace tcpscope
