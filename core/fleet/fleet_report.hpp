#pragma once
#include <nlohmann/json.hpp>
#include <ostream>

#include "fleet/fleet_queries.hpp"

namespace tcpscope {

/// The fleet findings as text: one line each, the same finding on many hosts first (most hosts
/// first), then the port ranges near full.
void writeFleetText(std::ostream& out, const FleetResults& results, const FleetQueryOptions& options);

/// The same as JSON: {"schema": "tcpscope-fleet/1", "since_ns", "min_hosts", "window_s", "near_full_pct",
/// "nat_ports", "fleet_findings": [...]}; every fleet finding names its query in "kind".
nlohmann::ordered_json fleetJson(const FleetResults& results, const FleetQueryOptions& options);

}  // namespace tcpscope
