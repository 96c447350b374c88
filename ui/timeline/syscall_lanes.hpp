#pragma once
#include <span>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "timeline/timeline_model.hpp"

namespace tcpscope::ui {

/// One timeline lane per traced socket tied to a connection, right below that connection's lane:
/// its calls (writes, reads, the waits that reported it ready, its life calls) on the capture's clock.
std::vector<TimelineLane> timelineSyscallLanes(const StraceAlignment& alignment);

/// A lane of calls that failed at `timesNs`, labelled `label`, each call named `callLabel` where
/// it has room (the timeline's extra-lane drawing, on screen and in the report's port-pool picture).
TimelineLane failedCallsLane(std::span<const int64_t> timesNs, std::string label, const std::string& callLabel = {});

/// One lane per server the traced processes could not connect() to for want of a free local port
/// (EADDRNOTAVAIL), the servers with most failures first: "failed connect() ×592 → 127.0.0.1:9000".
std::vector<TimelineLane> timelineFailedConnectLanes(const StraceAlignment& alignment);

}  // namespace tcpscope::ui
