#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "capture/time_origin.hpp"
#include "incident/incident.hpp"

namespace tcpscope {

/// The report's `incidents` section (docs/json-report.md): one object per incident, its impact with
/// only the figures that apply.
/// Event times are written as the findings' are: seconds since the epoch, from `origin`.
nlohmann::ordered_json incidentsJson(const std::vector<Incident>& incidents, TimeOrigin origin);

/// "port_pool", "process", "listener", "connection" or "capture".
std::string_view incidentScopeName(IncidentScope scope);

}  // namespace tcpscope
