#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "series/chart_point.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope {

/// One line of an I/O graph of the whole capture (Wireshark's Statistics > I/O Graphs): the
/// packets that pass a filter, one event each, x in seconds since the capture start and y its TCP
/// payload bytes. Sum them per interval with intervalTotals().
struct IoGraphLine {
    std::vector<ChartPoint> packets;
    uint64_t payloadBytes = 0;
};

/// The line of the packets of `packets` for which `keep(position)` is true (every packet when
/// `keep` is empty); x in seconds since `originNs`.
IoGraphLine ioGraphLineOf(const PacketIndex& packets, int64_t originNs,
                          const std::function<bool(size_t position)>& keep = {});

}  // namespace tcpscope
