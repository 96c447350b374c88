#include "report/finding_summary.hpp"

#include <fmt/format.h>

namespace tcpscope {

std::string findingSummary(const Finding& finding, const FindingEnrichment& enrichment) {
    std::string summary = finding.summary;
    if (!enrichment.straceVerdicts.empty()) {
        const VerdictCounts counts = countVerdicts(enrichment.straceVerdicts);
        switch (findingVerdict(counts)) {
            case StraceVerdictKind::Confirmed:
                summary += fmt::format(
                    " The system call trace confirms {} of them: the application wrote the bytes ({}) and the "
                    "kernel held them until the ACK{}.",
                    counts.confirmed, counts.pattern,
                    counts.nodelaySet ? ", although TCP_NODELAY was set" : "; TCP_NODELAY was never set");
                break;
            case StraceVerdictKind::Refuted:
                summary += fmt::format(
                    " The system call trace does not support it: the application wrote the late bytes only just "
                    "before they left ({} of {} stalls).",
                    counts.refuted, counts.refuted + counts.untraced);
                break;
            case StraceVerdictKind::NoTrace: break;
        }
    }
    if (const std::optional<FailedConnects>& failed = enrichment.failedConnects) {
        summary += fmt::format(" The trace shows {} connect() calls failing with EADDRNOTAVAIL over {:.1f} s.",
                               failed->count, static_cast<double>(failed->lastTsNs - failed->firstTsNs) / 1e9);
    }
    return summary;
}

}  // namespace tcpscope
