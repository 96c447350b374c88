#pragma once
#include <ostream>
#include <string>

#include "analysis/capture_analysis.hpp"
#include "finding/finding_placement.hpp"

namespace tcpscope {

/// Where the time of a finding's stalls went, in words: "(19 stalls), waited at proxy: 40.1 ms held
/// by server's delayed ACK, 12.1 ms in flight proxy -> server, ..." (medians per stall, the most
/// time first), and the hops its data was lost on.
std::string placementText(const FindingPlacement& placement);

/// One part of a finding's stalls in words, with its median: "40.1 ms held by server's delayed ACK",
/// "5.0 ms in flight proxy -> server".
std::string placedPartText(const PlacedPartTotal& part);

/// One line per finding placed along the path (FindingEnrichment::placement, several capture points), under
/// "Where the stalls' time went". Nothing when no finding is placed (one capture point).
void writePlacementsText(std::ostream& out, const CaptureAnalysis& analysis);

}  // namespace tcpscope
