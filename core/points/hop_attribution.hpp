#pragma once
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "points/point_sightings.hpp"

namespace tcpscope {

/// Writes the placement (FindingEnrichment::placement, in analysis.enrichments) of every finding of
/// `analysis` whose kind's row says how (KindInfo::hops: delayed_ack_stall, retransmission_stall,
/// zero_window_stall); `analysis` is the merged analysis of several points, whose frames `sightings` knows:
/// each listed span broken into parts along the path from the other points' sightings of its
/// segments, on the reference clock. Hosts are the points that saw an address's segments first
/// (PointSightings::hostPointOf), named as the points are (`pointNames`).
/// - delayed_ack_stall (small segment P, late ACK A, held segment D, timed at the vantage point V):
///   P from V to the receiver's point, the receiver holding A (its delayed ACK), A to the sender's
///   point, the sender releasing D, D back to V. The parts add up to the stall; a sighting that is
///   missing joins its neighbours into one part out of sight.
/// - retransmission_stall: the sender's retransmission timer for the whole stall, and where the
///   transmission that went unanswered was lost: the last point on its way (in the order the
///   retransmission passed them) that saw it and the next one, or that it reached the receiver's point.
/// - zero_window_stall: the receiver's application not reading, from the window's closing to its
///   reopening as the receiver's point saw them.
/// Findings are completed one at a time (CaptureAnalysis::completeFinding), so that a report that
/// writes them as it goes keeps doing so.
void placeFindingSpans(CaptureAnalysis& analysis, const PointSightings& sightings,
                       const std::vector<std::string>& pointNames);

}  // namespace tcpscope
