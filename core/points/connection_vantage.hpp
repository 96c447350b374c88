#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <vector>

#include "points/point_clocks.hpp"
#include "points/point_segments.hpp"
#include "tcp/flow_key.hpp"

namespace tcpscope {

/// For each connection (4-tuple), the capture point whose packets of it the analysis takes, so that
/// a packet seen at several points counts once: the point that saw most of its segments. Among
/// points that saw as many, the one nearest the side that sent most of its data: on
/// the reference clock (`clocks`, when their offsets are separable from the delays) it saw that
/// side's first data segment first, so the stalls of that sender are timed where they happen (a
/// proxy's Nagle stall at the proxy). Then a point on one of its endpoints' hosts (it saw that
/// endpoint's segments with their initial TTL while another point saw them decremented), then the
/// point given first.
absl::flat_hash_map<FlowKey, uint32_t> chooseVantagePoints(const std::vector<PointSegments>& points,
                                                           const std::vector<PointClock>& clocks);

}  // namespace tcpscope
