#pragma once
#include <cstdint>
#include <vector>

#include "engine/analysis_engine.hpp"
#include "series/chart_point.hpp"

namespace tcpscope {

/// One round-trip time measured on a connection: a segment and the ACK that covered it.
struct RttSample {
    int64_t ackTsNs = 0;
    double rttMs = 0;
    uint32_t segmentFrame = 0;
    uint32_t ackFrame = 0;
};

/// The RTT samples of what `sender` sent on `connection`, defined as Wireshark's
/// tcp.analysis.ack_rtt: an ACK from the peer whose number is exactly the end (seq + length, SYN
/// and FIN counting one) of a segment still unacknowledged gives ACK time - segment time; an
/// ACK that only covers part of a segment or ends between segments gives none, nor does a zero
/// time (tshark shows none). Unlike Wireshark, Karn's rule applies: no sample for a segment
/// flagged as a retransmission or overlapping one still in flight, nor for an ACK carried by a
/// RST (its ACK cannot tell which copy arrived). In the order of the ACKs.
std::vector<RttSample> rttSamplesOf(const AnalysisEngine& engine, uint32_t connection, Side sender);
/// The same from a packet index and `connection`'s state read with it (a live capture's snapshot).
std::vector<RttSample> rttSamplesOf(const PacketIndex& packets, const Connection& connection, Side sender);

/// The samples as chart points: x = the ACK's time in seconds since the capture's first frame,
/// y = milliseconds.
std::vector<ChartPoint> rttPoints(const std::vector<RttSample>& samples, int64_t originNs);

}  // namespace tcpscope
