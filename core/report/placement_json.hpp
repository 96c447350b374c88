#pragma once
#include <nlohmann/json.hpp>

#include "finding/finding_placement.hpp"

namespace tcpscope {

/// A finding's `placement` in the JSON report (docs/json-report.md, "Placement along the path"):
/// `waited_at`, the parts added up by kind and place, the hops data was lost on, and each span's parts.
nlohmann::ordered_json placementJson(const FindingPlacement& placement);

}  // namespace tcpscope
