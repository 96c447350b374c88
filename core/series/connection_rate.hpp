#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "engine/analysis_engine.hpp"
#include "series/chart_point.hpp"

namespace tcpscope {

/// When connections were attempted, over the whole capture: every SYN without ACK, split into a
/// connection's first SYN and its repeats (retransmitted SYNs: the listen queue or the network
/// dropped the earlier one). Times in seconds since the capture's first frame, in order.
struct ConnectionAttempts {
    std::vector<double> newConnections;
    std::vector<double> synRetransmissions;
    double durationSeconds = 0;  ///< from the first frame to the last
    size_t packetsRead = 0;      ///< positions of the packet index read so far
};

/// Collects the attempts in one pass over the packet index.
ConnectionAttempts connectionAttemptsOf(const AnalysisEngine& engine);
/// Adds the attempts among the packets `packets` gained since `attempts` last read it (a live
/// capture's newer snapshot: the index only grows, and a packet's kind never changes); packets of
/// connections beyond `connections` are left out. `originNs` is the capture's first frame.
void extendConnectionAttempts(ConnectionAttempts& attempts, const PacketIndex& packets,
                              const ConnectionStore& connections, int64_t originNs, int64_t lastTsNs);

/// A bin width for rates over [fromX, toX] drawn `columns` pixels wide: the smallest of 1 ms,
/// 10 ms, 100 ms, 1 s, 10 s, 1 min, 10 min, 1 h that makes a bin at least `minPixels` wide.
double rateBinSeconds(double fromX, double toX, size_t columns, double minPixels = 3);

/// Events per second in bins of `binSeconds` aligned on multiples of it, over [fromX, toX], as a
/// staircase (two points per bin). `times` must be sorted.
std::vector<ChartPoint> ratePoints(std::span<const double> times, double fromX, double toX, double binSeconds);

}  // namespace tcpscope
