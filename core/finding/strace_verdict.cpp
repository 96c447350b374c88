#include "finding/strace_verdict.hpp"

namespace tcpscope {

std::string_view straceVerdictName(StraceVerdictKind verdict) {
    switch (verdict) {
        case StraceVerdictKind::Confirmed: return "confirmed";
        case StraceVerdictKind::Refuted: return "refuted";
        case StraceVerdictKind::NoTrace: return "no_trace";
    }
    return "no_trace";
}

VerdictCounts countVerdicts(const std::vector<StraceVerdict>& verdicts) {
    VerdictCounts counts;
    for (const StraceVerdict& verdict : verdicts) {
        switch (verdict.verdict) {
            case StraceVerdictKind::NoTrace: ++counts.untraced; continue;
            case StraceVerdictKind::Confirmed: ++counts.confirmed; break;
            case StraceVerdictKind::Refuted: ++counts.refuted; break;
        }
        counts.nodelaySet |= verdict.nodelaySet;
        counts.pattern = verdict.pattern;
    }
    return counts;
}

StraceVerdictKind findingVerdict(const VerdictCounts& counts) {
    return counts.confirmed > 0 ? StraceVerdictKind::Confirmed
           : counts.refuted > 0 ? StraceVerdictKind::Refuted
                                : StraceVerdictKind::NoTrace;
}

}  // namespace tcpscope
