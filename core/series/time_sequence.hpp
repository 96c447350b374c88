#pragma once
#include <cstdint>
#include <vector>

#include "engine/analysis_engine.hpp"
#include "series/chart_point.hpp"

namespace tcpscope {

/// The time-sequence (Stevens) graph of what one side of a connection sent: y is the sequence
/// number relative to that side's initial one (the SYN is 0, the first data byte 1, as Wireshark
/// shows them), unwrapped past 4 GiB; x is seconds since the capture's first frame.
struct TimeSequenceSeries {
    /// Two points per data segment, at its time: its first byte, then the end (first + length).
    std::vector<ChartPoint> segments;
    /// The first byte of segments flagged retransmission, fast_retransmission or spurious_retransmission.
    std::vector<ChartPoint> retransmissions;
    /// The peer's acknowledgement number, as a staircase.
    std::vector<ChartPoint> acks;
    /// The peer's ACK plus its receive window (scaled as announced in the handshake): the highest
    /// sequence number the sender may send, as a staircase.
    std::vector<ChartPoint> receiveWindow;
    uint64_t dataSegments = 0;
    uint64_t retransmittedSegments = 0;
};

/// The graph of what `sender` sent on `connection` (a flow id of `engine`).
TimeSequenceSeries timeSequenceOf(const AnalysisEngine& engine, uint32_t connection, Side sender);
/// The same from a packet index and `connection`'s state read with it (a live capture's
/// snapshot); x is seconds since `originNs`.
TimeSequenceSeries timeSequenceOf(const PacketIndex& packets, const Connection& connection, int64_t originNs,
                                  Side sender);

}  // namespace tcpscope
