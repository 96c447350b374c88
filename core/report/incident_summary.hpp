#pragma once
#include <vector>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "report/incident_sections.hpp"
#include "report/report_blocks.hpp"

namespace tcpscope {

/// At most this many incidents (or causes, where there are no incidents) are named in the summary.
inline constexpr size_t kSummaryCauses = 3;

/// The one-screen summary of an incident report: what happened (the incidents with their impact in the
/// user's terms; without incidents, the top causes and the wall-clock time they cost), the chain and
/// the fix of the first incident (without incidents, the root cause and fix once per kind), and two or
/// three lines of evidence (the first wait's frames and times; the strace calls that confirm it when
/// `alignment` is given).
std::vector<ReportBlock> incidentSummaryBlocks(const CaptureAnalysis& analysis,
                                               const std::vector<ReportSection>& sections,
                                               const std::vector<Incident>& incidents, const IncidentCauses& causes,
                                               const StraceAlignment* alignment);

}  // namespace tcpscope
