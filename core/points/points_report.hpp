#pragma once
#include <nlohmann/json.hpp>
#include <ostream>

#include "points/point_analysis.hpp"

namespace tcpscope {

/// The `points` and `hops` sections of the JSON report (members of the returned object), as
/// docs/json-report.md describes them.
nlohmann::ordered_json pointsJson(const CapturePointsSummary& analysis);

/// The "Capture points" block of the text report: each point's clock against the reference and
/// each hop's one-way delays.
void writePointsText(std::ostream& out, const CapturePointsSummary& analysis);

}  // namespace tcpscope
