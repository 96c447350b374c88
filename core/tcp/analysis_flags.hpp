#pragma once
#include <cstdint>
#include <string_view>

namespace tcpscope {

/// Per-packet TCP analysis flags, with Wireshark's names and meanings (tcp.analysis.*).
enum class AnalysisFlag : uint16_t {
    Retransmission = 1u << 0,
    FastRetransmission = 1u << 1,
    SpuriousRetransmission = 1u << 2,
    OutOfOrder = 1u << 3,
    LostSegment = 1u << 4,
    AckLostSegment = 1u << 5,
    DuplicateAck = 1u << 6,
    ZeroWindow = 1u << 7,
    ZeroWindowProbe = 1u << 8,
    ZeroWindowProbeAck = 1u << 9,
    WindowFull = 1u << 10,
    WindowUpdate = 1u << 11,
    KeepAlive = 1u << 12,
    KeepAliveAck = 1u << 13,
    ReusedPorts = 1u << 14,
};

/// A set of AnalysisFlag bits.
using AnalysisFlags = uint16_t;

inline constexpr int kAnalysisFlagCount = 15;

constexpr AnalysisFlags bit(AnalysisFlag flag) { return static_cast<AnalysisFlags>(flag); }
constexpr bool has(AnalysisFlags flags, AnalysisFlag flag) { return (flags & bit(flag)) != 0; }

/// Wireshark's field name without the "tcp.analysis." prefix, e.g. "duplicate_ack".
std::string_view analysisFlagName(AnalysisFlag flag);

/// The flag with index i (0 .. kAnalysisFlagCount-1), in bit order.
constexpr AnalysisFlag analysisFlagAt(int index) { return static_cast<AnalysisFlag>(1u << index); }

}  // namespace tcpscope
