#pragma once
#include <nlohmann/json.hpp>

#include "finding/finding.hpp"

namespace tcpscope {

/// Whether strace confirmation judged `finding` (Finding::straceVerdicts, Finding::failedConnects):
/// then its evidence in the report has a "strace" part that Finding::evidence does not hold.
bool hasStraceEvidence(const Finding& finding);
/// The evidence of `finding` as the report writes it: Finding::evidence with, when the trace judged
/// it, the verdicts written in: per stall "verdict" and "strace" (the held write, the calls around
/// it), and for the finding "strace" (the verdicts counted, or the failed connect() calls).
nlohmann::json findingEvidenceJson(const Finding& finding);
/// The failed connect() calls of a port_exhaustion finding as its evidence's "strace" part.
nlohmann::json failedConnectsJson(const FailedConnects& failed);

}  // namespace tcpscope
