#pragma once
#include <vector>

#include "points/point_analysis.hpp"
#include "report/report_blocks.hpp"

namespace tcpscope {

/// The capture points of an investigation of several, as the incident report shows them (the GUI's
/// Capture points panel in the report's blocks): a heading, each point's files, packets and clock
/// against the reference, and each hop's one-way delays both ways.
std::vector<ReportBlock> pointsReportBlocks(const CapturePointsSummary& points);

}  // namespace tcpscope
