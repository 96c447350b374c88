#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "fleet/fleet_findings.hpp"

namespace tcpscope {

/// The fleet findings as text: one line each, most hosts first.
void writeFleetText(std::ostream& out, const std::vector<FleetFinding>& findings, const FleetQueryOptions& options);

/// The same as JSON: {"schema": "tcpscope-fleet/1", "since", "min_hosts", "window_s", "fleet_findings": [...]}.
nlohmann::ordered_json fleetJson(const std::vector<FleetFinding>& findings, const FleetQueryOptions& options);

}  // namespace tcpscope
