#include "report/time_lost.hpp"

namespace tcpscope {

std::vector<TimeLostByKind> timeLostByFlow(const CaptureAnalysis& analysis) {
    std::vector<TimeLostByKind> lost(analysis.engine->connections().size());
    for (const Finding& finding : analysis.findings) {
        if (finding.connection < lost.size()) {
            lost[finding.connection][std::string(findingKindName(finding.kind))] += finding.durationMs;
        }
    }
    return lost;
}

double totalMs(const TimeLostByKind& lost) {
    double total = 0;
    for (const auto& [kind, ms] : lost) {
        total += ms;
    }
    return total;
}

}  // namespace tcpscope
