#pragma once
#include <string>

#include "finding/finding.hpp"
#include "finding/finding_enrichment.hpp"

namespace tcpscope {

/// The sentence a finding is listed with in the reports: its detector's summary, then what its
/// enrichments add (what the strace log says of its stalls, or of the connect() calls that failed).
std::string findingSummary(const Finding& finding, const FindingEnrichment& enrichment);

}  // namespace tcpscope
