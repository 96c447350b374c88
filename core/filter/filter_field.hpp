#pragma once
#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "filter/frame_record.hpp"
#include "tcp/analysis_flags.hpp"
#include "tcp/connection.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope::filter {

/// What one packet offers a display filter: its record in the packet index, its connection, the
/// time of the capture's first frame (any frame, as Wireshark's frame.time_relative counts), and
/// for the fields that read it (FieldInfo::readsRecord) the frame's own record, if read.
struct FilterPacket {
    const IndexedPacket& packet;
    const Connection& connection;
    int64_t captureStartNs = 0;
    const FrameRecord* record = nullptr;
};

/// How a field's values are compared, as Wireshark types them.
enum class FieldType : uint8_t {
    Unsigned,  ///< an integer (frame.number, tcp.port, tcp.flags ...)
    Boolean,   ///< 0 or 1, also True and False (tcp.flags.syn ...)
    Time,      ///< a relative time in seconds, held in nanoseconds (frame.time_relative)
    Ipv4,      ///< an IPv4 address, literal a.b.c.d with an optional /prefix
    Ipv6,      ///< an IPv6 address, with an optional /prefix
    Label,     ///< present or not, no value (tcp.analysis.retransmission, protocols such as tcp)
};

/// The fields the filter knows. One row of kFields each.
enum class FieldId : uint8_t {
    FrameNumber,
    FrameTimeRelative,
    FrameTimeDelta,
    FrameLen,
    FrameCapLen,
    IpTtl,
    IpId,
    Ipv6Hlim,
    TcpOptionMss,
    TcpOptionWindowShift,
    TcpOptionSackPermitted,
    TcpOptionTsval,
    TcpOptionTsecr,
    Ip,
    IpSrc,
    IpDst,
    IpAddr,
    Ipv6,
    Ipv6Src,
    Ipv6Dst,
    Ipv6Addr,
    Tcp,
    TcpSrcPort,
    TcpDstPort,
    TcpPort,
    TcpStream,
    TcpLen,
    TcpSeq,
    TcpSeqRaw,
    TcpAck,
    TcpAckRaw,
    TcpFlags,
    TcpFlagBit,  ///< one of tcp.flags.fin .. tcp.flags.cwr (FieldInfo::tcpFlag)
    TcpWindowSize,
    TcpWindowSizeValue,
    TcpAnalysisFlags,
    TcpAnalysisFlag,  ///< one of tcp.analysis.* (FieldInfo::analysisFlag)
};

/// One field a filter can name, in Wireshark's words.
struct FieldInfo {
    std::string_view name;
    FieldId id = FieldId::Tcp;
    FieldType type = FieldType::Label;
    uint8_t tcpFlag = 0;             ///< for TcpFlagBit: the bit in IndexedPacket::tcpFlags
    AnalysisFlags analysisFlag = 0;  ///< for TcpAnalysisFlag: the flag's bit
    bool readsRecord = false;        ///< its value is in the frame's record (FilterPacket::record), not the index
};

/// The field called `name` (e.g. "tcp.port"), or nothing if the filter does not know it.
std::optional<FieldInfo> findField(std::string_view name);

/// Every field the filter knows, for the documentation and the error messages.
std::span<const FieldInfo> knownFields();

/// A field's value or a literal, in one ordered form: integers and times (signed nanoseconds) are
/// the low word with the sign bit flipped, IPv4 addresses the low word, IPv6 addresses both words
/// big-endian; so comparing keys compares the values.
struct FilterKey {
    uint64_t high = 0;
    uint64_t low = 0;

    static FilterKey ofSigned(int64_t value) { return {0, static_cast<uint64_t>(value) ^ (uint64_t{1} << 63)}; }
    [[nodiscard]] int64_t asSigned() const { return static_cast<int64_t>(low ^ (uint64_t{1} << 63)); }
    auto operator<=>(const FilterKey&) const = default;
};

/// A field has at most two values in one packet (ip.addr, tcp.port: source and destination).
struct FieldValues {
    std::array<FilterKey, 2> keys{};
    uint8_t count = 0;  ///< 0: the packet does not have the field
};

/// The values of field `field` in `packet`.
FieldValues fieldValues(const FieldInfo& field, const FilterPacket& packet);

}  // namespace tcpscope::filter
