#include "report/cause_and_fix.hpp"

namespace tcpscope {

CauseAndFix causeAndFix(FindingKind kind) {
    switch (kind) {
        case FindingKind::DelayedAckStall:
            return {
                "The sender wrote each message in more than one small write; Nagle's algorithm held the last "
                "small segment until the previous one was acknowledged, and the receiver delayed that ACK "
                "(40 ms on Linux).",
                "Set TCP_NODELAY on the sending socket, or write each message in one call (writev, or buffer "
                "and flush once)."};
        case FindingKind::RetransmissionStall:
            return {
                "Segments were lost and the sender waited for its retransmission timer instead of resending "
                "at once.",
                "Find where the packets are dropped (interface and qdisc drops, a full queue, a lossy link); "
                "keep tail loss probes and RACK on (Linux's default)."};
        case FindingKind::ZeroWindowStall:
            return {
                "The receiving application did not read fast enough: its receive buffer filled, it advertised "
                "a zero window and the sender had to stop.",
                "Make the receiver read promptly (a slow consumer, a blocked event loop) or give it a larger "
                "receive buffer (SO_RCVBUF, net.ipv4.tcp_rmem)."};
        case FindingKind::SynBacklogOverflow:
            return {
                "The listener's SYN or accept queue was full: the kernel dropped handshakes and the clients "
                "retransmitted their SYNs after 1 s, 3 s, ...",
                "Accept faster (more acceptor threads, nothing blocking in the accept loop) and raise the "
                "backlog: listen(fd, N) together with net.core.somaxconn and net.ipv4.tcp_max_syn_backlog."};
        case FindingKind::PortReuse:
            return {
                "A new connection reused the 4-tuple (the client port) of an earlier one that the server still "
                "held in TIME_WAIT; when the server refused the SYN the client had to reset and retry.",
                "Keep connections open (keep-alive, a pool) instead of one per request, widen "
                "net.ipv4.ip_local_port_range, and keep TCP timestamps on so the server can accept the reuse."};
        case FindingKind::TimeWaitChurn:
            return {
                "A host closes so many short connections first that they pile up in TIME_WAIT (60 s on Linux), "
                "each holding one of its ports.",
                "Reuse connections (HTTP keep-alive, a connection pool) or let the server close first; on the "
                "client, net.ipv4.tcp_tw_reuse=1 lets outgoing connections reuse TIME_WAIT ports."};
        case FindingKind::PortExhaustion:
            return {
                "The client opened connections to one server faster than its ephemeral ports came out of "
                "TIME_WAIT; with every port in use, new connections paused or connect() failed.",
                "Reuse connections (keep-alive, a pool); widen net.ipv4.ip_local_port_range, set "
                "net.ipv4.tcp_tw_reuse=1, or spread the load over more server addresses or ports."};
        case FindingKind::SynUnanswered:
            return {"SYNs got no answer at all: the server was down or unreachable, or a firewall dropped them.",
                    "Check that the service listens on that address and port and what filters the path; give the "
                    "client a shorter connect timeout."};
        case FindingKind::SynFlood:
            return {
                "Many SYNs from many sources reached the server and few completed a handshake: a SYN flood or a "
                "misbehaving fleet of clients.",
                "Keep SYN cookies on (net.ipv4.tcp_syncookies=1), rate-limit SYNs upstream and identify the "
                "sources."};
        case FindingKind::PortScan:
            return {
                "One source probed many ports of a host, or a host answered none: a scan or a misconfigured "
                "client, not a stall of a service.",
                "Nothing to tune: confirm that the source is known, and block it if it is not."};
        case FindingKind::CaptureQuality:
            return {
                "The capture itself missed, repeated or reordered packets, so part of it is not what happened "
                "on the wire.",
                "Capture again at one end, with a larger buffer (tcpdump -B) and without capturing the same "
                "packets on two interfaces."};
        case FindingKind::PathMtu:
            return {
                "A router could not forward the sender's full-size packets and asked for smaller ones (ICMP "
                "\"packet too big\"); the sender resent the data smaller, after a wait.",
                "Fix the path's MTU: lower it or clamp the MSS on the tunnel or VPN (iptables TCPMSS "
                "--clamp-mss-to-pmtu), and let ICMP \"too big\" messages through."};
    }
    return {"", ""};
}

}  // namespace tcpscope
