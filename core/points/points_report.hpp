#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "points/point_analysis.hpp"

namespace tcpscope {

/// The `points` and `hops` sections of the JSON report (members of the returned object), as
/// docs/json-report.md describes them.
nlohmann::ordered_json pointsJson(const CapturePointsSummary& analysis);

/// A point's clock in words: "reference clock", "clock -730.012 ms ± 0.004 ms, drift +0.0 ± 0.1 ppm",
/// the clock given by the user and the one fitted, or why it is unknown.
std::string pointClockText(const PointSummary& summary);

/// "client -> proxy median 5.012 ms, p99 5.210 ms (60 packets)", or "client -> proxy unknown".
std::string oneWayDelayText(const std::string& from, const std::string& to, const std::optional<OneWayDelay>& delay);

/// The "Capture points" block of the text report: each point's clock against the reference and
/// each hop's one-way delays.
void writePointsText(std::ostream& out, const CapturePointsSummary& analysis);

}  // namespace tcpscope
