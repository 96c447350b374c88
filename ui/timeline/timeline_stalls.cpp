#include "timeline/timeline_stalls.hpp"

#include <algorithm>
#include <cmath>

namespace tcpscope::ui {

namespace {
constexpr double kNsPerMs = 1e6;

int64_t msToNs(double ms) {
    // Bounded: a damaged capture's duration must not overflow the time arithmetic.
    constexpr double kMaxMs = 1e12;  // about 30 years
    return std::isfinite(ms) ? static_cast<int64_t>(std::llround(std::clamp(ms, -kMaxMs, kMaxMs) * kNsPerMs)) : 0;
}
}  // namespace

std::vector<StallSpan> stallSpans(const FindingList& findings, const ConnectionStore& connections) {
    std::vector<StallSpan> spans;
    for (const Finding& finding : findings) {
        const StallGroup cause = kindInfo(finding.kind).stallGroup;
        for (size_t index = 0; index < finding.spans.size(); ++index) {
            const FindingSpan& span = finding.spans[index];
            const uint32_t lane = span.connection < connections.size() ? span.connection : finding.connection;
            spans.push_back({span.startNs, std::max(span.endNs, span.startNs), finding.id, lane,
                             static_cast<uint32_t>(index), cause});
        }
        if (finding.spans.empty()) {
            spans.push_back({finding.tsNs, finding.tsNs + std::max<int64_t>(msToNs(finding.durationMs), 0), finding.id,
                             finding.connection, StallSpan::kWholeFinding, cause});
        }
    }
    return spans;
}

}  // namespace tcpscope::ui
