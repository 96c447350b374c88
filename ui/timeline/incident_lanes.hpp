#pragma once
#include <vector>

#include "incident/incident.hpp"
#include "timeline/timeline_model.hpp"

namespace tcpscope::ui {

/// One lane per incident that has events (at most kMaxIncidentLanes, most severe first), above every
/// connection: its moments (the first SYN dropped, the range full, the first failed connect(), the
/// recovery) as ticks, each labelled with what happened (the lane's tooltip).
inline constexpr size_t kMaxIncidentLanes = 3;
std::vector<TimelineLane> timelineIncidentLanes(const std::vector<Incident>& incidents);

}  // namespace tcpscope::ui
