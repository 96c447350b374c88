#pragma once
#include <cstdint>
#include <string_view>

#include "capture/packet_process.hpp"

namespace tcpscope {

/// LINKTYPE_* values (pcap and pcapng link-layer header types) that the decoder understands.
namespace linktype {
inline constexpr uint32_t kNull = 0;        ///< BSD loopback, AF_ value in host byte order
inline constexpr uint32_t kEthernet = 1;    ///< EN10MB
inline constexpr uint32_t kRaw = 101;       ///< raw IPv4 or IPv6 (DLT_RAW on most systems)
inline constexpr uint32_t kLoop = 108;      ///< OpenBSD loopback, AF_ value in network byte order
inline constexpr uint32_t kLinuxSll = 113;  ///< Linux cooked capture v1
inline constexpr uint32_t kIpv4 = 228;
inline constexpr uint32_t kIpv6 = 229;
inline constexpr uint32_t kPktap = 258;      ///< Apple pktap: a header with the process, then a frame of its own DLT
inline constexpr uint32_t kLinuxSll2 = 276; ///< Linux cooked capture v2 (tcpdump -i any)
}  // namespace linktype

/// One captured frame as stored in the file. `data` points into the reader's buffer and stays
/// valid only until the next call to that reader's next().
struct RawPacket {
    int64_t tsNs = 0;             ///< capture time, nanoseconds since the reader's timeOrigin() (the epoch, for
                                  ///< any time from 1824 to 2116)
    uint32_t capturedLength = 0;  ///< bytes present in `data`
    uint32_t originalLength = 0;  ///< length on the wire
    uint32_t linkType = 0;        ///< LINKTYPE_* of the interface the frame came from
    uint32_t interfaceId = 0;     ///< pcapng interface index (0 for pcap)
    uint64_t recordOffset = 0;    ///< byte offset of the record in the (decompressed) capture stream
    const uint8_t* data = nullptr;
    std::string_view comment;  ///< pcapng opt_comment of the packet (valid UTF-8), empty if none
    /// The process that sent (outbound) or received (inbound) the frame where the file says so
    /// (ptcpdump's comments, a process information block, a pktap header), or null. Owned by the
    /// reader: valid while it lives.
    const PacketProcess* process = nullptr;
    PacketDirection direction = PacketDirection::Unknown;  ///< pcapng epb_flags, pktap pth_flags
};

}  // namespace tcpscope
