#pragma once
#include <cstdint>

namespace tcpscope::bench {

/// TCP header flag bits, as on the wire.
namespace tcpflag {
inline constexpr uint8_t kFin = 0x01;
inline constexpr uint8_t kSyn = 0x02;
inline constexpr uint8_t kRst = 0x04;
inline constexpr uint8_t kPsh = 0x08;
inline constexpr uint8_t kAck = 0x10;
}  // namespace tcpflag

/// Which TCP options a segment carries (what Linux sends: MSS, SACK permitted, timestamps and
/// window scale on a SYN, timestamps on every other segment of a connection that agreed on them).
enum class SegmentOptions : uint8_t {
    None,        ///< 20-byte TCP header
    Timestamps,  ///< NOP NOP TS: 32-byte header
    Syn,         ///< MSS, SACK_PERM, TS, NOP, WS: 40-byte header
    SynNoTs,     ///< MSS, NOP NOP SACK_PERM, NOP WS: 32-byte header (a stack without timestamps)
};

/// One IPv4/TCP segment the generator will write, before it becomes bytes. Addresses are IPv4 in
/// host byte order. The payload is a fixed pattern; only its length is planned.
struct PlannedSegment {
    int64_t tsNs = 0;            ///< capture time
    uint32_t sourceIp = 0;
    uint32_t destinationIp = 0;
    uint16_t sourcePort = 0;
    uint16_t destinationPort = 0;
    uint32_t seq = 0;
    uint32_t ack = 0;
    uint32_t tsVal = 0;          ///< TCP timestamp option values (when the options carry them)
    uint32_t tsEcr = 0;
    uint16_t payloadBytes = 0;
    uint16_t window = 0;         ///< raw window field
    uint16_t ipId = 0;
    uint16_t mss = 1460;         ///< advertised in SYN options
    uint8_t flags = 0;           ///< tcpflag bits
    SegmentOptions options = SegmentOptions::None;
    uint8_t windowScale = 7;     ///< advertised in SYN options
    bool opensConnection = false;  ///< the first SYN of a new connection (not a retransmission)
};

}  // namespace tcpscope::bench
