#pragma once
#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"

namespace tcpscope {

/// Writes what the traced processes' system calls prove of the findings of `analysis` beside them
/// (CaptureAnalysis::enrichments, by finding id); the findings themselves are left as their
/// detectors made them:
/// - delayed_ack_stall: a verdict per span (FindingEnrichment::straceVerdicts): the write whose bytes
///   waited, how long the kernel held them (from the call to the segment on the wire), the calls
///   around it (write, write, epoll_wait) and whether TCP_NODELAY was set on the socket; a stall is
///   confirmed when the application wrote the held bytes long before they left, refuted when it
///   wrote them just before;
/// - port_exhaustion: the connect() calls that failed with EADDRNOTAVAIL, their count and span
///   (FindingEnrichment::failedConnects).
/// The writers say them (findingSummary, findingEvidenceJson).
void confirmFindingsWithSyscalls(CaptureAnalysis& analysis, const StraceAlignment& alignment);

/// The verdicts confirmFindingsWithSyscalls gives the spans of one delayed_ack_stall finding (one per
/// span, in order; empty for a finding of another kind or of a connection no socket is tied to).
/// A live capture asks it of each stall as soon as the calls around it are recorded.
std::vector<StraceVerdict> stallVerdicts(const Finding& finding, const StraceAlignment& alignment,
                                         const AnalysisEngine& engine);

}  // namespace tcpscope
