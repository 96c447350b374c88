#pragma once
#include <nlohmann/json.hpp>

#include "finding/finding.hpp"
#include "finding/finding_enrichment.hpp"

namespace tcpscope {

/// Whether strace confirmation judged a finding (FindingEnrichment::straceVerdicts, failedConnects):
/// then its evidence in the report has a "strace" part that Finding::evidence does not hold.
bool hasStraceEvidence(const FindingEnrichment& enrichment);
/// The evidence of `finding` as the report writes it: Finding::evidence with, when the trace judged
/// it, the verdicts of `enrichment` written in: per stall "verdict" and "strace" (the held write,
/// the calls around it; the verdicts are the spans', and the evidence's instances list the spans in
/// the same order), and for the finding "strace" (the verdicts counted, or the failed connect() calls).
nlohmann::json findingEvidenceJson(const Finding& finding, const FindingEnrichment& enrichment);
/// The failed connect() calls of a port_exhaustion finding as its evidence's "strace" part.
nlohmann::json failedConnectsJson(const FailedConnects& failed);

}  // namespace tcpscope
