#include "views/timeline_stalls.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tcpscope::ui {

namespace {
constexpr double kNsPerMs = 1e6;

// Evidence keys, as the detectors write them. An entry's duration is the first of these present.
constexpr std::array<const char*, 5> kDurationKeys = {"hold_ms", "gap_ms", "closed_ms", "pause_ms", "delay_ms"};
constexpr std::array<const char*, 3> kListKeys = {"instances", "pauses", "connections"};

int64_t msToNs(double ms) {
    // Bounded: evidence from a damaged capture must not overflow the time arithmetic.
    constexpr double kMaxMs = 1e12;  // about 30 years
    return std::isfinite(ms) ? static_cast<int64_t>(std::llround(std::clamp(ms, -kMaxMs, kMaxMs) * kNsPerMs)) : 0;
}

bool number(const nlohmann::json& object, const char* key, double& value) {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_number()) {
        return false;
    }
    value = found->get<double>();
    return true;
}

// Where one evidence entry sits on the timeline, or false if it says nothing about time.
bool entrySpan(const Finding& finding, const nlohmann::json& entry, const ConnectionStore& connections,
               StallSpan& span) {
    if (!entry.is_object()) {
        return false;
    }
    span.connection = finding.connection;
    const auto named = entry.find("connection");
    if (named != entry.end() && named->is_number_integer() && named->get<int64_t>() >= 0 &&
        static_cast<uint64_t>(named->get<int64_t>()) < connections.size()) {
        span.connection = static_cast<uint32_t>(named->get<int64_t>());
    }
    double offset = 0;
    if (number(entry, "ts_offset_ms", offset)) {
        span.startNs = finding.tsNs + msToNs(offset);
    } else if (number(entry, "start_s", offset)) {
        span.startNs = finding.tsNs + msToNs(offset * 1000);
    } else if (span.connection != kNoConnection && span.connection < connections.size() &&
               span.connection != finding.connection) {
        // Named a connection but no time: the connection's first packet (its SYN).
        span.startNs = connections[span.connection].firstTsNs;
    } else {
        return false;
    }
    double durationMs = 0;
    for (const char* key : kDurationKeys) {
        if (number(entry, key, durationMs)) {
            break;
        }
    }
    span.endNs = span.startNs + std::max<int64_t>(msToNs(durationMs), 0);
    return true;
}
}  // namespace

StallCause stallCauseOf(FindingKind kind) {
    switch (kind) {
        case FindingKind::DelayedAckStall: return StallCause::NagleDelayedAck;
        case FindingKind::RetransmissionStall: return StallCause::RetransmissionTimeout;
        case FindingKind::ZeroWindowStall: return StallCause::ZeroWindow;
        case FindingKind::PortReuse: return StallCause::PortReuse;
        case FindingKind::SynBacklogOverflow: return StallCause::SynBacklog;
        case FindingKind::PortExhaustion: return StallCause::PortExhaustion;
        case FindingKind::TimeWaitChurn: return StallCause::TimeWait;
        case FindingKind::SynUnanswered:
        case FindingKind::SynFlood:
        case FindingKind::PortScan:
        case FindingKind::CaptureQuality:
        case FindingKind::PathMtu: break;
    }
    return StallCause::Other;
}

std::string_view stallCauseLabel(StallCause cause) {
    switch (cause) {
        case StallCause::NagleDelayedAck: return "Nagle + delayed ACK";
        case StallCause::RetransmissionTimeout: return "Retransmission timeout";
        case StallCause::ZeroWindow: return "Zero window";
        case StallCause::PortReuse: return "Port reuse";
        case StallCause::SynBacklog: return "SYN backlog overflow";
        case StallCause::PortExhaustion: return "Ports exhausted";
        case StallCause::TimeWait: return "TIME_WAIT churn";
        case StallCause::Other: break;
    }
    return "Finding";
}

std::vector<StallSpan> stallSpans(const std::vector<Finding>& findings, const ConnectionStore& connections) {
    std::vector<StallSpan> spans;
    for (const Finding& finding : findings) {
        const StallCause cause = stallCauseOf(finding.kind);
        bool listed = false;
        if (finding.evidence.is_object()) {
            for (const char* key : kListKeys) {
                const auto list = finding.evidence.find(key);
                if (list == finding.evidence.end() || !list->is_array()) {
                    continue;
                }
                for (size_t index = 0; index < list->size(); ++index) {
                    StallSpan span;
                    if (entrySpan(finding, (*list)[index], connections, span)) {
                        span.finding = finding.id;
                        span.instance = static_cast<uint32_t>(index);
                        span.cause = cause;
                        spans.push_back(span);
                        listed = true;
                    }
                }
            }
        }
        if (!listed) {
            spans.push_back({finding.tsNs, finding.tsNs + std::max<int64_t>(msToNs(finding.durationMs), 0), finding.id,
                             finding.connection, StallSpan::kWholeFinding, cause});
        }
    }
    return spans;
}

}  // namespace tcpscope::ui
