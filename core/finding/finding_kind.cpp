#include "finding/finding_kind.hpp"

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

std::string_view findingKindTitle(FindingKind kind) {
    switch (kind) {
        case FindingKind::DelayedAckStall: return "Nagle + delayed ACK";
        case FindingKind::RetransmissionStall: return "Retransmission timeout";
        case FindingKind::ZeroWindowStall: return "Zero window";
        case FindingKind::SynBacklogOverflow: return "Listen backlog overflow";
        case FindingKind::PortReuse: return "Port reuse";
        case FindingKind::TimeWaitChurn: return "TIME_WAIT churn";
        case FindingKind::PortExhaustion: return "Ephemeral port exhaustion";
        case FindingKind::SynUnanswered: return "Unanswered SYNs";
        case FindingKind::SynFlood: return "SYN flood";
        case FindingKind::PortScan: return "Port scan";
        case FindingKind::CaptureQuality: return "Capture quality";
        case FindingKind::PathMtu: return "Path MTU: packet too big";
    }
    return "Unknown";
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
