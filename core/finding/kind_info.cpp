#include "finding/kind_info.hpp"

namespace tcpscope {

namespace {

// The rows, one case per kind: the switch has no default, so a kind without a row is a warning
// (-Wswitch, an error in CI).
constexpr KindInfo rowOf(FindingKind kind) {
    switch (kind) {
        case FindingKind::DelayedAckStall:
            return {
                .kind = kind,
                .name = "delayed_ack_stall",
                .title = "Nagle + delayed ACK",
                .cause = "The sender wrote each message in more than one small write; Nagle's algorithm held the last "
                         "small segment until the previous one was acknowledged, and the receiver delayed that ACK "
                         "(40 ms on Linux).",
                .fix = "Set TCP_NODELAY on the sending socket, or write each message in one call (writev, or buffer "
                       "and flush once).",
                .picture = SectionPicture::Sequence,
                .waits = WaitUnit::Request,
                .frames = FrameRoles::namedInReport(
                    {FrameRole::SmallSegment, FrameRole::LateAck, FrameRole::HeldSegment}),
                .stallGroup = StallGroup::NagleDelayedAck,
                .hops = HopPlacement::DelayedAck,
                .incident = {.scope = IncidentScope::Process,
                             .role = ChainRole::Cause,
                             .joins = std::nullopt,
                             .step = "small writes held by Nagle until the peer's delayed ACK came"},
            };
        case FindingKind::RetransmissionStall:
            return {
                .kind = kind,
                .name = "retransmission_stall",
                .title = "Retransmission timeout",
                .cause = "Segments were lost and the sender waited for its retransmission timer instead of resending "
                         "at once.",
                .fix = "Find where the packets are dropped (interface and qdisc drops, a full queue, a lossy link); "
                       "keep tail loss probes and RACK on (Linux's default).",
                .picture = SectionPicture::Sequence,
                .waits = WaitUnit::Request,
                .frames = FrameRoles::unnamed({FrameRole::LastTransmission, FrameRole::Retransmission}),
                .stallGroup = StallGroup::RetransmissionTimeout,
                .hops = HopPlacement::Retransmission,
                .incident = {.scope = IncidentScope::Connection,
                             .role = ChainRole::Cause,
                             .joins = IncidentScope::Listener,
                             .step = "lost segments resent only when the retransmission timer fired"},
            };
        case FindingKind::ZeroWindowStall:
            return {
                .kind = kind,
                .name = "zero_window_stall",
                .title = "Zero window",
                .cause = "The receiving application did not read fast enough: its receive buffer filled, it "
                         "advertised a zero window and the sender had to stop.",
                .fix = "Make the receiver read promptly (a slow consumer, a blocked event loop) or give it a larger "
                       "receive buffer (SO_RCVBUF, net.ipv4.tcp_rmem).",
                .picture = SectionPicture::Sequence,
                .waits = WaitUnit::Request,
                .frames = FrameRoles::unnamed({FrameRole::WindowClosed, FrameRole::FirstProbe, FrameRole::WindowEnd}),
                .stallGroup = StallGroup::ZeroWindow,
                .hops = HopPlacement::ReceiverWindow,
                .incident = {.scope = IncidentScope::Connection,
                             .role = ChainRole::Cause,
                             .joins = std::nullopt,
                             .step = "the receiver's window closed and the sender stopped"},
            };
        case FindingKind::SynBacklogOverflow:
            return {
                .kind = kind,
                .name = "syn_backlog_overflow",
                .title = "Listen backlog overflow",
                .cause = "The listener's SYN or accept queue was full: the kernel dropped handshakes and the clients "
                         "retransmitted their SYNs after 1 s, 3 s, ...",
                .fix = "Accept faster (more acceptor threads, nothing blocking in the accept loop) and raise the "
                       "backlog: listen(fd, N) together with net.core.somaxconn and net.ipv4.tcp_max_syn_backlog.",
                .picture = SectionPicture::Handshakes,
                .waits = WaitUnit::Handshake,
                .frames = FrameRoles::namedInReport({FrameRole::FirstSyn}),
                .stallGroup = StallGroup::SynBacklog,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::Listener,
                             .role = ChainRole::Cause,
                             .joins = std::nullopt,
                             .step = "the listen queue full: SYNs dropped, clients waiting on their SYN timer"},
            };
        case FindingKind::PortReuse:
            return {
                .kind = kind,
                .name = "port_reuse",
                .title = "Port reuse",
                .cause = "A new connection reused the 4-tuple (the client port) of an earlier one that the server "
                         "still held in TIME_WAIT; when the server refused the SYN the client had to reset and retry.",
                .fix = "Keep connections open (keep-alive, a pool) instead of one per request, widen "
                       "net.ipv4.ip_local_port_range, and keep TCP timestamps on so the server can accept the reuse.",
                .picture = SectionPicture::Timeline,
                .waits = WaitUnit::Handshake,
                .frames = FrameRoles::namedInReport(
                    {FrameRole::FirstSyn, FrameRole::ServerAnswer, FrameRole::HandshakeEnd}),
                .stallGroup = StallGroup::PortReuse,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::PortPool,
                             .role = ChainRole::Effect,
                             .joins = IncidentScope::Listener,
                             .step = "new connections reusing ports still held in TIME_WAIT"},
            };
        case FindingKind::TimeWaitChurn:
            return {
                .kind = kind,
                .name = "time_wait_churn",
                .title = "TIME_WAIT churn",
                .cause = "A host closes so many short connections first that they pile up in TIME_WAIT (60 s on "
                         "Linux), each holding one of its ports.",
                .fix = "Reuse connections (HTTP keep-alive, a connection pool) or let the server close first; on the "
                       "client, net.ipv4.tcp_tw_reuse=1 lets outgoing connections reuse TIME_WAIT ports.",
                .picture = SectionPicture::PortPool,
                .waits = WaitUnit::Request,
                .frames = {},
                .stallGroup = StallGroup::TimeWait,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::PortPool,
                             .role = ChainRole::Cause,
                             .joins = IncidentScope::Listener,
                             .step = "connections closed first, each holding its port in TIME_WAIT"},
            };
        case FindingKind::PortExhaustion:
            return {
                .kind = kind,
                .name = "port_exhaustion",
                .title = "Ephemeral port exhaustion",
                .cause = "The client opened connections to one server faster than its ephemeral ports came out of "
                         "TIME_WAIT; with every port in use, new connections paused or connect() failed.",
                .fix = "Reuse connections (keep-alive, a pool); widen net.ipv4.ip_local_port_range, set "
                       "net.ipv4.tcp_tw_reuse=1, or spread the load over more server addresses or ports.",
                .picture = SectionPicture::PortPool,
                .waits = WaitUnit::Pause,
                .frames = FrameRoles::namedInReport({FrameRole::LastSynBeforePause, FrameRole::NextSyn}),
                .stallGroup = StallGroup::PortExhaustion,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::PortPool,
                             .role = ChainRole::Effect,
                             .joins = std::nullopt,
                             .step = "TIME_WAIT filling the port range: new connections pause, connect() fails"},
            };
        case FindingKind::SynUnanswered:
            return {
                .kind = kind,
                .name = "syn_unanswered",
                .title = "Unanswered SYNs",
                .cause = "SYNs got no answer at all: the server was down or unreachable, or a firewall dropped them.",
                .fix = "Check that the service listens on that address and port and what filters the path; give the "
                       "client a shorter connect timeout.",
                .picture = SectionPicture::Timeline,
                .waits = WaitUnit::ConnectionAttempt,
                .frames = {},
                .stallGroup = StallGroup::Other,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::Listener,
                             .role = ChainRole::Effect,
                             .joins = std::nullopt,
                             .step = "SYNs with no answer at all"},
            };
        case FindingKind::SynFlood:
            return {
                .kind = kind,
                .name = "syn_flood",
                .title = "SYN flood",
                .cause = "Many SYNs from many sources reached the server and few completed a handshake: a SYN flood "
                         "or a misbehaving fleet of clients.",
                .fix = "Keep SYN cookies on (net.ipv4.tcp_syncookies=1), rate-limit SYNs upstream and identify the "
                       "sources.",
                .picture = SectionPicture::Timeline,
                .waits = WaitUnit::ConnectionAttempt,
                .frames = {},
                .stallGroup = StallGroup::Other,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::Capture,
                             .role = ChainRole::Cause,
                             .joins = std::nullopt,
                             .step = "many SYNs from many sources, few handshakes completed"},
            };
        case FindingKind::PortScan:
            return {
                .kind = kind,
                .name = "port_scan",
                .title = "Port scan",
                .cause = "One source probed many ports of a host, or a host answered none: a scan or a misconfigured "
                         "client, not a stall of a service.",
                .fix = "Nothing to tune: confirm that the source is known, and block it if it is not.",
                .picture = SectionPicture::Timeline,
                .waits = WaitUnit::ConnectionAttempt,
                .frames = {},
                .stallGroup = StallGroup::Other,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::Capture,
                             .role = ChainRole::Cause,
                             .joins = std::nullopt,
                             .step = "one source probing many ports"},
            };
        case FindingKind::CaptureQuality:
            return {
                .kind = kind,
                .name = "capture_quality",
                .title = "Capture quality",
                .cause = "The capture itself missed, repeated or reordered packets, so part of it is not what "
                         "happened on the wire.",
                .fix = "Capture again at one end, with a larger buffer (tcpdump -B) and without capturing the same "
                       "packets on two interfaces.",
                .picture = SectionPicture::None,
                .waits = WaitUnit::Request,
                .frames = {},
                .stallGroup = StallGroup::Other,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::Capture,
                             .role = ChainRole::Cause,
                             .joins = std::nullopt,
                             .step = "packets missed, repeated or reordered by the capture"},
            };
        case FindingKind::PathMtu:
            return {
                .kind = kind,
                .name = "path_mtu",
                .title = "Path MTU: packet too big",
                .cause = "A router could not forward the sender's full-size packets and asked for smaller ones (ICMP "
                         "\"packet too big\"); the sender resent the data smaller, after a wait.",
                .fix = "Fix the path's MTU: lower it or clamp the MSS on the tunnel or VPN (iptables TCPMSS "
                       "--clamp-mss-to-pmtu), and let ICMP \"too big\" messages through.",
                .picture = SectionPicture::Sequence,
                .waits = WaitUnit::Request,
                .frames = FrameRoles::unnamed(
                    {FrameRole::RefusedSegment, FrameRole::TooBigMessage, FrameRole::SmallerResend}),
                .stallGroup = StallGroup::Other,
                .hops = HopPlacement::None,
                .incident = {.scope = IncidentScope::Connection,
                             .role = ChainRole::Cause,
                             .joins = std::nullopt,
                             .step = "packets too big for the path, resent smaller after a wait"},
            };
    }
    return {};
}

constexpr auto kRows = [] {
    std::array<KindInfo, kFindingKinds.size()> rows{};
    for (size_t index = 0; index < kFindingKinds.size(); ++index) {
        rows[index] = rowOf(kFindingKinds[index]);
    }
    return rows;
}();

constexpr bool rowsInEnumOrder() {
    for (size_t index = 0; index < kRows.size(); ++index) {
        if (static_cast<size_t>(kRows[index].kind) != index || kRows[index].name.empty()) {
            return false;
        }
    }
    return true;
}
static_assert(rowsInEnumOrder(), "kFindingKinds lists every kind once, in the enum's order, each with its row");

}  // namespace

const KindInfo& kindInfo(FindingKind kind) {
    return kRows[static_cast<size_t>(kind)];
}

std::string_view stallGroupLabel(StallGroup group) {
    switch (group) {
        case StallGroup::NagleDelayedAck: return "Nagle + delayed ACK";
        case StallGroup::RetransmissionTimeout: return "Retransmission timeout";
        case StallGroup::ZeroWindow: return "Zero window";
        case StallGroup::PortReuse: return "Port reuse";
        case StallGroup::SynBacklog: return "SYN backlog overflow";
        case StallGroup::PortExhaustion: return "Ports exhausted";
        case StallGroup::TimeWait: return "TIME_WAIT churn";
        case StallGroup::Other: return "Finding";
    }
    return "Finding";
}

std::string_view frameRoleWords(FrameRole role) {
    switch (role) {
        case FrameRole::SmallSegment: return "the small segment";
        case FrameRole::LateAck: return "the late ACK";
        case FrameRole::HeldSegment: return "the held segment";
        case FrameRole::LastTransmission: return "the last transmission";
        case FrameRole::Retransmission: return "the retransmission";
        case FrameRole::WindowClosed: return "the zero window";
        case FrameRole::FirstProbe: return "the first window probe";
        case FrameRole::WindowEnd: return "the window opening";
        case FrameRole::FirstSyn: return "the first SYN";
        case FrameRole::ServerAnswer: return "the server's answer for the old connection";
        case FrameRole::HandshakeEnd: return "the end of the handshake";
        case FrameRole::LastSynBeforePause: return "the last SYN before the pause";
        case FrameRole::NextSyn: return "the next one";
        case FrameRole::RefusedSegment: return "the segment refused as too big";
        case FrameRole::TooBigMessage: return "the router's message";
        case FrameRole::SmallerResend: return "the smaller resend";
    }
    return "";
}

}  // namespace tcpscope
