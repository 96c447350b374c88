#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <vector>

#include "points/point_segments.hpp"
#include "tcp/flow_key.hpp"

namespace tcpscope {

/// For each connection (4-tuple), the capture point whose packets of it the analysis takes, so that
/// a packet seen at several points counts once: the point that saw most of its segments; on a tie,
/// a point on one of its endpoints' hosts (it saw that endpoint's segments with their initial TTL
/// while another point saw them decremented), then the point given first.
absl::flat_hash_map<FlowKey, uint32_t> chooseVantagePoints(const std::vector<PointSegments>& points);

}  // namespace tcpscope
