#include "filter/filter_field.hpp"

#include <algorithm>

#include "decode/decoded_packet.hpp"

namespace tcpscope::filter {
namespace {

constexpr FieldInfo field(std::string_view name, FieldId id, FieldType type) {
    return {name, id, type, 0, 0, false};
}
constexpr FieldInfo recordField(std::string_view name, FieldId id, FieldType type) {
    return {name, id, type, 0, 0, true};
}
constexpr FieldInfo flagBit(std::string_view name, uint16_t bit) {
    return {name, FieldId::TcpFlagBit, FieldType::Boolean, static_cast<uint8_t>(bit), 0, false};
}
constexpr FieldInfo analysis(std::string_view name, AnalysisFlag flag) {
    return {name, FieldId::TcpAnalysisFlag, FieldType::Label, 0, bit(flag), false};
}

constexpr std::array kFields{
    field("frame.number", FieldId::FrameNumber, FieldType::Unsigned),
    field("frame.time_relative", FieldId::FrameTimeRelative, FieldType::Time),
    recordField("frame.time_delta", FieldId::FrameTimeDelta, FieldType::Time),
    recordField("frame.len", FieldId::FrameLen, FieldType::Unsigned),
    recordField("frame.cap_len", FieldId::FrameCapLen, FieldType::Unsigned),
    recordField("ip.ttl", FieldId::IpTtl, FieldType::Unsigned),
    recordField("ip.id", FieldId::IpId, FieldType::Unsigned),
    recordField("ipv6.hlim", FieldId::Ipv6Hlim, FieldType::Unsigned),
    recordField("tcp.options.mss_val", FieldId::TcpOptionMss, FieldType::Unsigned),
    recordField("tcp.options.wscale.shift", FieldId::TcpOptionWindowShift, FieldType::Unsigned),
    recordField("tcp.options.sack_perm", FieldId::TcpOptionSackPermitted, FieldType::Label),
    recordField("tcp.options.timestamp.tsval", FieldId::TcpOptionTsval, FieldType::Unsigned),
    recordField("tcp.options.timestamp.tsecr", FieldId::TcpOptionTsecr, FieldType::Unsigned),
    field("ip", FieldId::Ip, FieldType::Label),
    field("ip.src", FieldId::IpSrc, FieldType::Ipv4),
    field("ip.dst", FieldId::IpDst, FieldType::Ipv4),
    field("ip.addr", FieldId::IpAddr, FieldType::Ipv4),
    field("ipv6", FieldId::Ipv6, FieldType::Label),
    field("ipv6.src", FieldId::Ipv6Src, FieldType::Ipv6),
    field("ipv6.dst", FieldId::Ipv6Dst, FieldType::Ipv6),
    field("ipv6.addr", FieldId::Ipv6Addr, FieldType::Ipv6),
    field("tcp", FieldId::Tcp, FieldType::Label),
    field("tcp.srcport", FieldId::TcpSrcPort, FieldType::Unsigned),
    field("tcp.dstport", FieldId::TcpDstPort, FieldType::Unsigned),
    field("tcp.port", FieldId::TcpPort, FieldType::Unsigned),
    field("tcp.stream", FieldId::TcpStream, FieldType::Unsigned),
    field("tcp.len", FieldId::TcpLen, FieldType::Unsigned),
    field("tcp.seq", FieldId::TcpSeq, FieldType::Unsigned),
    field("tcp.seq_raw", FieldId::TcpSeqRaw, FieldType::Unsigned),
    field("tcp.ack", FieldId::TcpAck, FieldType::Unsigned),
    field("tcp.ack_raw", FieldId::TcpAckRaw, FieldType::Unsigned),
    field("tcp.flags", FieldId::TcpFlags, FieldType::Unsigned),
    flagBit("tcp.flags.fin", tcpflag::kFin),
    flagBit("tcp.flags.syn", tcpflag::kSyn),
    flagBit("tcp.flags.reset", tcpflag::kRst),
    flagBit("tcp.flags.push", tcpflag::kPsh),
    flagBit("tcp.flags.ack", tcpflag::kAck),
    flagBit("tcp.flags.urg", tcpflag::kUrg),
    flagBit("tcp.flags.ece", tcpflag::kEce),
    flagBit("tcp.flags.cwr", tcpflag::kCwr),
    field("tcp.window_size", FieldId::TcpWindowSize, FieldType::Unsigned),
    field("tcp.window_size_value", FieldId::TcpWindowSizeValue, FieldType::Unsigned),
    field("tcp.analysis.flags", FieldId::TcpAnalysisFlags, FieldType::Label),
    analysis("tcp.analysis.retransmission", AnalysisFlag::Retransmission),
    analysis("tcp.analysis.fast_retransmission", AnalysisFlag::FastRetransmission),
    analysis("tcp.analysis.spurious_retransmission", AnalysisFlag::SpuriousRetransmission),
    analysis("tcp.analysis.out_of_order", AnalysisFlag::OutOfOrder),
    analysis("tcp.analysis.lost_segment", AnalysisFlag::LostSegment),
    analysis("tcp.analysis.ack_lost_segment", AnalysisFlag::AckLostSegment),
    analysis("tcp.analysis.duplicate_ack", AnalysisFlag::DuplicateAck),
    analysis("tcp.analysis.zero_window", AnalysisFlag::ZeroWindow),
    analysis("tcp.analysis.zero_window_probe", AnalysisFlag::ZeroWindowProbe),
    analysis("tcp.analysis.zero_window_probe_ack", AnalysisFlag::ZeroWindowProbeAck),
    analysis("tcp.analysis.window_full", AnalysisFlag::WindowFull),
    analysis("tcp.analysis.window_update", AnalysisFlag::WindowUpdate),
    analysis("tcp.analysis.keep_alive", AnalysisFlag::KeepAlive),
    analysis("tcp.analysis.keep_alive_ack", AnalysisFlag::KeepAliveAck),
    analysis("tcp.analysis.reused_ports", AnalysisFlag::ReusedPorts),
};

FilterKey number(uint64_t value) {
    return FilterKey::ofSigned(static_cast<int64_t>(value));
}

FieldValues one(FilterKey key) {
    return {{key, FilterKey{}}, 1};
}
FieldValues two(FilterKey first, FilterKey second) {
    return {{first, second}, 2};
}
FieldValues present() {
    return one(number(1));
}

// IPv4 addresses as numbers (ip.*), IPv6 addresses as two words (ipv6.*); an address of the other
// family is absent, as in a packet without that layer.
std::optional<FilterKey> v4Key(const IpAddress& address) {
    uint32_t value = 0;
    if (!address.v4Value(value)) {
        return std::nullopt;
    }
    return FilterKey{0, value};
}

std::optional<FilterKey> v6Key(const IpAddress& address) {
    if (address.isV4()) {
        return std::nullopt;
    }
    FilterKey key;
    for (size_t i = 0; i < 8; ++i) {
        key.high = key.high << 8 | address.bytes[i];
        key.low = key.low << 8 | address.bytes[i + 8];
    }
    return key;
}

FieldValues addresses(const FilterPacket& p, FieldId id, bool v6) {
    const Side sender = p.packet.fromServer ? Side::Server : Side::Client;
    const IpAddress& source = p.connection.endpoint(sender).address;
    const IpAddress& destination = p.connection.endpoint(otherSide(sender)).address;
    const auto key = [v6](const IpAddress& address) { return v6 ? v6Key(address) : v4Key(address); };
    const std::optional<FilterKey> sourceKey = key(source);
    const std::optional<FilterKey> destinationKey = key(destination);
    if (!sourceKey || !destinationKey) {
        return {};
    }
    switch (id) {
        case FieldId::IpSrc:
        case FieldId::Ipv6Src: return one(*sourceKey);
        case FieldId::IpDst:
        case FieldId::Ipv6Dst: return one(*destinationKey);
        default: return two(*sourceKey, *destinationKey);
    }
}

// The window as Wireshark's tcp.window_size shows it: shifted by the sender's scale once both SYNs
// agreed on scaling, never in a SYN; a server's scale is unknown until its SYN-ACK (a challenge
// ACK on a reused tuple comes before it).
uint64_t scaledWindow(const FilterPacket& p) {
    const Side sender = p.packet.fromServer ? Side::Server : Side::Client;
    const int8_t shift = p.connection.sequence[sideIndex(sender)].windowScale;
    const bool beforeServerScale =
        p.packet.fromServer && (p.connection.synAckTsNs == kNoTime || p.packet.tsNs < p.connection.synAckTsNs);
    if ((p.packet.tcpFlags & tcpflag::kSyn) != 0 || shift < 0 || beforeServerScale) {
        return p.packet.window;
    }
    return uint64_t{p.packet.window} << shift;
}

// The fields read from the frame's record; absent without one (or for a frame that is no TCP segment).
FieldValues recordValues(const FieldInfo& field, const FilterPacket& p) {
    if (p.record == nullptr) {
        return {};
    }
    const FrameRecord& record = *p.record;
    switch (field.id) {
        case FieldId::FrameTimeDelta: return one(FilterKey::ofSigned(record.deltaNs));
        case FieldId::FrameLen: return one(number(record.originalLength));
        case FieldId::FrameCapLen: return one(number(record.capturedLength));
        default: break;
    }
    if (!record.tcp) {
        return {};
    }
    const TcpSegment& segment = record.segment;
    const TcpOptions& options = segment.options;
    const bool v4 = segment.ipVersion == 4;
    switch (field.id) {
        case FieldId::IpTtl: return v4 ? one(number(segment.ttl)) : FieldValues{};
        case FieldId::IpId: return v4 ? one(number(segment.ipId)) : FieldValues{};
        case FieldId::Ipv6Hlim: return v4 ? FieldValues{} : one(number(segment.ttl));
        case FieldId::TcpOptionMss: return options.mss != 0 ? one(number(options.mss)) : FieldValues{};
        case FieldId::TcpOptionWindowShift:
            return options.windowScale >= 0 ? one(number(options.windowScaleSent)) : FieldValues{};
        case FieldId::TcpOptionSackPermitted: return options.sackPermitted ? present() : FieldValues{};
        case FieldId::TcpOptionTsval: return options.hasTimestamp ? one(number(options.tsVal)) : FieldValues{};
        case FieldId::TcpOptionTsecr: return options.hasTimestamp ? one(number(options.tsEcr)) : FieldValues{};
        default: return {};
    }
}

}  // namespace

std::optional<FieldInfo> findField(std::string_view name) {
    const auto found =
        std::find_if(kFields.begin(), kFields.end(), [name](const FieldInfo& f) { return f.name == name; });
    if (found == kFields.end()) {
        return std::nullopt;
    }
    return *found;
}

std::span<const FieldInfo> knownFields() {
    return kFields;
}

FieldValues fieldValues(const FieldInfo& field, const FilterPacket& p) {
    if (field.readsRecord) {
        return recordValues(field, p);
    }
    const IndexedPacket& packet = p.packet;
    const Connection& connection = p.connection;
    const Side sender = packet.fromServer ? Side::Server : Side::Client;
    const Side receiver = otherSide(sender);
    switch (field.id) {
        case FieldId::FrameNumber: return one(number(packet.frame));
        case FieldId::FrameTimeRelative: return one(FilterKey::ofSigned(packet.tsNs - p.captureStartNs));
        case FieldId::Ip: return connection.client.address.isV4() ? present() : FieldValues{};
        case FieldId::Ipv6: return connection.client.address.isV4() ? FieldValues{} : present();
        case FieldId::IpSrc:
        case FieldId::IpDst:
        case FieldId::IpAddr: return addresses(p, field.id, false);
        case FieldId::Ipv6Src:
        case FieldId::Ipv6Dst:
        case FieldId::Ipv6Addr: return addresses(p, field.id, true);
        case FieldId::Tcp: return present();
        case FieldId::TcpSrcPort: return one(number(connection.endpoint(sender).port));
        case FieldId::TcpDstPort: return one(number(connection.endpoint(receiver).port));
        case FieldId::TcpPort:
            return two(number(connection.endpoint(sender).port), number(connection.endpoint(receiver).port));
        case FieldId::TcpStream: return one(number(packet.connection));
        case FieldId::TcpLen: return one(number(packet.payloadLength));
        case FieldId::TcpSeq:
            return one(number(static_cast<uint32_t>(packet.seq - connection.sequence[sideIndex(sender)].baseSeq)));
        case FieldId::TcpSeqRaw: return one(number(packet.seq));
        case FieldId::TcpAck:
            // Relative to the peer's first sequence number; without the ACK bit Wireshark shows the
            // field as it is (a scanner's probe may carry any number there).
            return one(number((packet.tcpFlags & tcpflag::kAck) != 0
                                  ? static_cast<uint32_t>(packet.ack - connection.sequence[sideIndex(receiver)].baseSeq)
                                  : packet.ack));
        case FieldId::TcpAckRaw: return one(number(packet.ack));
        case FieldId::TcpFlags: return one(number(packet.tcpFlags));
        case FieldId::TcpFlagBit: return one(number((packet.tcpFlags & field.tcpFlag) != 0 ? 1 : 0));
        case FieldId::TcpWindowSize: return one(number(scaledWindow(p)));
        case FieldId::TcpWindowSizeValue: return one(number(packet.window));
        case FieldId::TcpAnalysisFlags: return packet.analysis != 0 ? present() : FieldValues{};
        case FieldId::TcpAnalysisFlag: return (packet.analysis & field.analysisFlag) != 0 ? present() : FieldValues{};
        default: return {};  // the fields of the frame's record, above
    }
}

}  // namespace tcpscope::filter
