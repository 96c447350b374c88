#include "detect/finding_kind.hpp"

namespace tcpscope {

std::string_view findingKindName(FindingKind kind) {
    switch (kind) {
        case FindingKind::DelayedAckStall: return "delayed_ack_stall";
        case FindingKind::RetransmissionStall: return "retransmission_stall";
        case FindingKind::ZeroWindowStall: return "zero_window_stall";
        case FindingKind::SynBacklogOverflow: return "syn_backlog_overflow";
        case FindingKind::PortReuse: return "port_reuse";
        case FindingKind::TimeWaitChurn: return "time_wait_churn";
        case FindingKind::PortExhaustion: return "port_exhaustion";
        case FindingKind::SynUnanswered: return "syn_unanswered";
        case FindingKind::SynFlood: return "syn_flood";
        case FindingKind::PortScan: return "port_scan";
        case FindingKind::CaptureQuality: return "capture_quality";
        case FindingKind::PathMtu: return "path_mtu";
    }
    return "unknown";
}

std::optional<FindingKind> parseFindingKind(std::string_view name) {
    for (const FindingKind kind : kFindingKinds) {
        if (findingKindName(kind) == name) {
            return kind;
        }
    }
    return std::nullopt;
}

}  // namespace tcpscope
