#include "finding/finding.hpp"

namespace tcpscope {

std::string_view severityName(Severity severity) {
    switch (severity) {
        case Severity::Error: return "error";
        case Severity::Warning: return "warning";
        case Severity::Info: return "info";
    }
    return "info";
}

}  // namespace tcpscope
