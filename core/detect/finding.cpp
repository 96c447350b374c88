#include "detect/finding.hpp"

namespace tcpscope {

std::string_view severityName(Severity severity) {
    switch (severity) {
        case Severity::Error: return "error";
        case Severity::Warning: return "warning";
        case Severity::Info: return "info";
    }
    return "info";
}

std::string_view straceVerdictName(StraceVerdictKind verdict) {
    switch (verdict) {
        case StraceVerdictKind::Confirmed: return "confirmed";
        case StraceVerdictKind::Refuted: return "refuted";
        case StraceVerdictKind::NoTrace: return "no_trace";
    }
    return "no_trace";
}

}  // namespace tcpscope
