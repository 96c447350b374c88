#include "timeline/incident_lanes.hpp"

#include <fmt/format.h>

namespace tcpscope::ui {

std::vector<TimelineLane> timelineIncidentLanes(const std::vector<Incident>& incidents) {
    std::vector<TimelineLane> lanes;
    for (const Incident& incident : incidents) {
        if (lanes.size() == kMaxIncidentLanes) {
            break;
        }
        if (incident.events.empty()) {
            continue;
        }
        TimelineLane& lane = lanes.emplace_back();
        lane.label = fmt::format("incident {}: {}", incident.id + 1, incident.subject.empty() ? incident.title
                                                                                            : incident.subject);
        for (const IncidentEvent& event : incident.events) {
            lane.events.push_back({event.tsNs, 0, event.what, EventKind::Other});
        }
    }
    return lanes;
}

}  // namespace tcpscope::ui
