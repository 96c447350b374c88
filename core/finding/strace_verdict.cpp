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

}  // namespace tcpscope
