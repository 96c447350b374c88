#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "series/chart_point.hpp"
#include "tcp/connection.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope {

/// The data segments of one connection for its throughput graph (Wireshark's TCP Stream Graphs >
/// Throughput): per direction, one event per segment with payload, x in seconds since `originNs`
/// and y its TCP payload bytes (retransmissions included, as Wireshark counts them). Sum them per
/// interval with intervalTotals().
struct ThroughputSeries {
    std::array<std::vector<ChartPoint>, 2> segments;  ///< indexed by sideIndex(sender)
    std::array<uint64_t, 2> payloadBytes{};           ///< per direction
};

ThroughputSeries throughputOf(const PacketIndex& packets, const Connection& connection, int64_t originNs);

}  // namespace tcpscope
