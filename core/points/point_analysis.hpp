#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "points/capture_point.hpp"
#include "points/point_clocks.hpp"
#include "points/point_sightings.hpp"

namespace tcpscope {

/// What was read at one capture point and how its clock relates to the reference's.
struct PointSummary {
    CapturePoint point;
    uint64_t frames = 0;               ///< all frames of its files
    uint64_t tcpSegments = 0;          ///< TCP segments among them
    uint64_t analysedSegments = 0;     ///< those the analysis took (of connections it is the vantage point of)
    uint64_t connectionsAnalysed = 0;  ///< connections whose packets were taken from this point
    PointClock clock;
    /// The fitted clock, when the user gave another (CapturePoint::clock); clock is then the given one.
    std::optional<PointClock> fittedClock;
};

/// The capture points of an analysis: each one's clock and what it saw, and the hops between them.
struct CapturePointsSummary {
    std::vector<PointSummary> points;
    /// Every pair of points with segments in common, in the order of the points.
    std::vector<PointLink> hops;
};

/// An analysis of several capture points of one incident: every connection analysed once, from one
/// point, on the reference point's clock.
struct PointsAnalysis {
    CaptureAnalysis analysis;
    CapturePointsSummary summary;
    /// Where each segment was seen and which point each frame of `analysis` came from; null with one point.
    std::shared_ptr<const PointSightings> sightings;
};

/// Reads every point's files, matches the segments seen at two points, fits each point's clock to
/// the first point's (or takes the clock given: CapturePoint::clock, ignored on the first point, the
/// reference), chooses one point per connection (chooseVantagePoints) and analyses those
/// packets, their times put on the reference clock, with every detector; then places the findings'
/// stalls along the path (placeFindingSpans: FindingEnrichment::placement). With one point, the
/// analysis is exactly analyzeCaptures() of its files. Throws CaptureError if a file cannot be
/// opened or is not a capture (standard input cannot be read twice: "-" is refused for several
/// points), BpfFilterError if the filter is invalid. `progress` counts the bytes of both reads of
/// every file (the segments to match, then the frames to analyse); `stop` ends the read in course:
/// the clocks are fitted from what was read, and the analysis holds the frames pushed until then.
PointsAnalysis analyzePoints(const std::vector<CapturePoint>& points, const AnalysisOptions& options,
                             LoadProgress* progress = nullptr, const StopToken* stop = nullptr);

}  // namespace tcpscope
