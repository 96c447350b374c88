#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "series/capture_population.hpp"

namespace tcpscope {

/// A stretch during which no new connection could be made: every port was open or in TIME_WAIT.
struct PortPoolPause {
    int64_t startNs = 0;
    int64_t endNs = 0;
    std::string label;  ///< "pause: no new connection for 60.65 s"
};

/// What the report's picture of a port exhaustion or TIME_WAIT churn cause draws over the
/// capture-wide rows (TIME_WAIT against the port range, new connections per second): the pauses,
/// the limit's words, and the connect() calls the trace saw fail for want of a port.
struct PortPoolMarks {
    std::vector<PortPoolPause> pauses;      ///< in time order
    std::string limit;                      ///< "100 ports", "28,232 ports (32768-60999)", or "": none drawn
    std::string limitLabel;                 ///< "limit: 100 ports", "limit: 28,232 ports (32768-60999)", or ""
    std::vector<int64_t> failedConnectsNs;  ///< connect() = -1 EADDRNOTAVAIL, sorted; empty without a trace
    std::string failedConnectsLabel;        ///< "592 connect() calls failed: EADDRNOTAVAIL, no free local port", or ""
};

/// The marks of the cause made of `findings` (indices into analysis.findings): the pauses of its
/// port exhaustion findings (of every port exhaustion finding for a TIME_WAIT churn cause, whose
/// own findings have none), the limit `population` draws, and, with `alignment`, the failed
/// connect() calls (to the finding's server for port exhaustion).
PortPoolMarks portPoolMarks(const CaptureAnalysis& analysis, std::span<const size_t> findings,
                            const CapturePopulation* population, const StraceAlignment* alignment);

/// What the picture shows, for the report's "Picture." line.
std::string portPoolNote(const PortPoolMarks& marks);

}  // namespace tcpscope
