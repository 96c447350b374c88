#pragma once
#include <vector>

#include "align/strace_alignment.hpp"

namespace tcpscope {

/// Adds what the traced processes' system calls prove to the findings (the summary says it too):
/// - delayed_ack_stall: a verdict per span (Finding::straceVerdicts): the write whose bytes waited,
///   how long the kernel held them (from the call to the segment on the wire), the calls around it
///   (write, write, epoll_wait) and whether TCP_NODELAY was set on the socket; a stall is confirmed
///   when the application wrote the held bytes long before they left, refuted when it wrote them
///   just before;
/// - port_exhaustion: the connect() calls that failed with EADDRNOTAVAIL, their count and span
///   (Finding::failedConnects).
/// The JSON report writes them into the evidence (findingEvidenceJson).
void confirmFindingsWithSyscalls(std::vector<Finding>& findings, const StraceAlignment& alignment,
                                 const AnalysisEngine& engine);

}  // namespace tcpscope
