#include "incident/incident_fix.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "finding/wording.hpp"

namespace tcpscope {

namespace {

constexpr double kLinuxTimeWaitS = 60;
constexpr uint32_t kWidestRangePorts = 65535 - 1024 + 1;

bool linuxTimeWait(const DetectorOptions& options) {
    return options.timeWaitSeconds == kLinuxTimeWaitS;
}

void fixedPortFix(uint16_t port, IncidentFix& fix) {
    fix.doThis.push_back(fmt::format(
        "Stop binding source port {}: let the kernel pick a free ephemeral port for each connection (no bind(), or "
        "bind to port 0).",
        port));
    fix.doesNotHelp.push_back(fmt::format(
        "Widening net.ipv4.ip_local_port_range does not help: every connection came from port {}, not from the range.",
        port));
}

void clientPoolFix(const PortPoolFigures& pool, const DetectorOptions& options, IncidentFix& fix) {
    fix.doThis.emplace_back(
        "Reuse connections: HTTP keep-alive or a connection pool (ab -k for ab), so that far fewer connections are "
        "opened and closed.");
    const bool seen = pool.range.source == PortRangeSource::Observed;
    fix.doThis.push_back(fmt::format(
        "Widen net.ipv4.ip_local_port_range: {} {}-{} ({} ports){} {} {:.1f} connections/s per client address "
        "with {:g} s of TIME_WAIT; 1024-65535 would sustain {:.0f}/s.",
        seen ? "the ports seen," : "the range", pool.range.low, pool.range.high, groupedDigits(pool.range.ports()),
        seen ? "," : "", seen ? "sustain" : "sustains",
        pool.rateSustainablePerS / static_cast<double>(std::max<size_t>(pool.clients.size(), 1)), pool.timeWaitS,
        kWidestRangePorts / pool.timeWaitS));
    if (linuxTimeWait(options)) {
        fix.doThis.emplace_back(
            "Set net.ipv4.tcp_tw_reuse=1 on the client, so that connect() may take a port still in TIME_WAIT toward "
            "this server (TCP timestamps on).");
    }
    fix.doThis.emplace_back(
        "Spread the connections over more server addresses or ports: each client address has the whole range toward "
        "each server endpoint.");
    if (linuxTimeWait(options)) {
        fix.doesNotHelp.emplace_back(
            "Lowering net.ipv4.tcp_fin_timeout does not shorten TIME_WAIT: on Linux it is fixed at 60 s, and that "
            "setting is the FIN_WAIT2 timeout.");
        fix.doesNotHelp.emplace_back(
            "net.ipv4.tcp_tw_recycle is no option: it was removed in Linux 4.12 because it broke clients behind NAT.");
    }
}

void serverPoolFix(IncidentFix& fix) {
    fix.doThis.emplace_back(
        "Use keep-alive (HTTP/1.1, ab -k) so that the server does not close a connection per request, or let the "
        "client close first, so that the TIME_WAIT stays with the client.");
    fix.doThis.emplace_back(
        "Keep TCP timestamps on at both ends: they let the server take a SYN on a port it still holds in TIME_WAIT.");
    fix.doesNotHelp.emplace_back(
        "Widening the client's port range does not help: the TIME_WAIT entries are the server's.");
}

void listenerFix(const LinkedFindings& story, const ListenerFigures& listener, IncidentFix& fix) {
    const std::string endpoint = story.server ? story.server->toString() : std::string("the listener");
    fix.doThis.push_back(fmt::format(
        "Accept faster on {}: more acceptor threads, nothing blocking in the accept loop; it answered {:.0f} "
        "connections/s while {} handshakes waited for a place in its queue.",
        endpoint, listener.rateAnsweredPerS, groupedDigits(listener.handshakesDelayed)));
    fix.doThis.emplace_back(
        "Raise the backlog: listen(fd, N) with a larger N, and net.core.somaxconn and net.ipv4.tcp_max_syn_backlog "
        "at least as large.");
    fix.doesNotHelp.emplace_back(
        "Raising net.core.somaxconn alone does not help while the program passes a small backlog to listen().");
    fix.doesNotHelp.emplace_back(
        "Fewer SYN retries on the clients (net.ipv4.tcp_syn_retries) do not help: they only give up sooner.");
}

void processFix(const LinkedFindings& story, IncidentFix& fix) {
    const std::string endpoint = story.server ? story.server->toString() : std::string("the sender");
    fix.doThis.push_back(fmt::format(
        "Set TCP_NODELAY on the sockets of the process behind {}, on both its sides (the connections it accepts "
        "and the ones it opens onward), or write each message in one call.",
        endpoint));
    fix.doesNotHelp.emplace_back(
        "TCP_QUICKACK on the receiving side does not last: Linux clears it again, and it fixes only the side you "
        "set it on.");
}

}  // namespace

IncidentFix fixFor(const FixEvidence& evidence) {
    IncidentFix fix;
    const LinkedFindings& story = evidence.story;
    switch (story.scope) {
        case IncidentScope::PortPool:
            if (evidence.fixedSourcePort) {
                fixedPortFix(*evidence.fixedSourcePort, fix);
            } else if (story.holder == PoolHolder::Server) {
                serverPoolFix(fix);
            } else if (evidence.pool != nullptr) {
                clientPoolFix(*evidence.pool, evidence.options, fix);
            }
            break;
        case IncidentScope::Listener:
            if (evidence.listener != nullptr && evidence.listener->handshakesDelayed > 0) {
                listenerFix(story, *evidence.listener, fix);
            } else {
                fix.doThis.emplace_back(kindInfo(story.kind).fix);
            }
            break;
        case IncidentScope::Process: processFix(story, fix); break;
        case IncidentScope::Connection:
        case IncidentScope::Capture: fix.doThis.emplace_back(kindInfo(story.kind).fix); break;
    }
    return fix;
}

}  // namespace tcpscope
