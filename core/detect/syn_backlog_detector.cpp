#include "detect/syn_backlog_detector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "finding/wording.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr int64_t kNsPerSecond = 1'000'000'000;
// A client gives up a handshake after about 127 s on Linux (tcp_syn_retries 6), 75 s on macOS
// and 21 s on Windows; a handshake older than this no longer counts as in flight.
constexpr int64_t kAbandonedHandshakeNs = 130 * kNsPerSecond;
// tcp_abort_on_overflow answers the final ACK at once: the RST follows it within a round trip
// (seen from the client) plus scheduling noise.
constexpr int64_t kAbortMarginNs = 10 * kNsPerMs;
constexpr size_t kMaxListedFrames = 1000;  // evidence keeps the first ones; counts keep all
constexpr size_t kMaxListedConnections = 1000;
constexpr size_t kMaxUnconfirmedSyns = 4096;  // per endpoint, until it answers a SYN at all

double toMs(int64_t ns) {
    return static_cast<double>(ns) / kNsPerMs;
}

}  // namespace

SynBacklogDetector::Handshake* SynBacklogDetector::find(uint32_t connection) {
    if (!handshakeOf_.holds(connection)) {
        return nullptr;  // retired, its chunk freed
    }
    const uint32_t index = handshakeOf_[connection].index;
    return index != kNoHandshake ? &handshakes_[index] : nullptr;
}

// Nothing that can come changes the handshake any more and nothing reads it: it may go as if it had
// never been tracked. A counted one keeps its outcome to the end; an excluded one never counts; a
// completed one whose server has sent data can no longer have its final ACK dropped or be reset by
// a full queue.
bool SynBacklogDetector::isOver(const Handshake& state) const {
    if (state.counted || state.pending || state.waiting) {
        return false;
    }
    if (state.unconfirmedListed && !listeners_[state.listener].everAnswered) {
        return false;  // its listener's unconfirmed list names it
    }
    return state.excluded || (state.completed && state.serverSentData);
}

uint32_t SynBacklogDetector::listenerOf(const Endpoint& server) {
    const auto listener = listenerIndex_.find(server);
    return listener != listenerIndex_.end() ? listener->second : addListener(server);
}

uint32_t SynBacklogDetector::addListener(const Endpoint& server) {
    const auto index = static_cast<uint32_t>(listeners_.size());
    listenerIndex_.emplace(server, index);
    Listener& listener = listeners_.emplace_back();
    listener.endpoint = server;
    if (const auto alone = aloneIndex_.find(server); alone != aloneIndex_.end()) {
        // Until now the alone handshake could only have been in flight (its first SYN made the
        // listener's peak 1), and may still be: whatever else it counts (a SYN retransmitted, a
        // SYN-ACK) makes its Listener before counting there.
        const uint32_t connection = alone->second;
        aloneIndex_.erase(alone);
        Handshake& state = *find(connection);
        state.listener = index;
        listener.peakInFlight = 1;
        if (state.pending) {
            listener.inFlightOrder.push_back(connection);
            listener.inFlight = 1;
        }
    }
    return index;
}

// A listener made later for the endpoint would differ only in a peak in flight of 0 instead of 1,
// which no finding can show: the first handshake that counts in one is in flight.
inline void SynBacklogDetector::release(HandshakeRef& ref, const Endpoint& server) {
    if (handshakes_[ref.index].listener == kNotListed) {
        aloneIndex_.erase(server);
    }
    handshakes_.release(ref.index);
    ref.index = kNoHandshake;
}

void SynBacklogDetector::prefetch(const SegmentEvent& event) const {
    handshakeOf_.prefetch(event.connection.id);
    const bool syn = (event.segment.flags & tcpflag::kSyn) != 0;
    const bool ack = (event.segment.flags & tcpflag::kAck) != 0;
    if (event.sender == Side::Client && syn && !ack && event.connection.firstFrame == event.frame) {
        prefetchListener(event.connection.server, event.frame);
    }
}

// Apart from prefetch(), which runs for every segment: its registers are saved only for a first SYN.
void SynBacklogDetector::prefetchListener(const Endpoint& server, uint32_t frame) const {
    // A connection's first SYN joins its listener's handshakes in flight, which first looks at the
    // oldest of them (a connection from long ago, its entry out of the cache).
    const auto listener = listenerIndex_.find(server);
    prefetched_ = {frame, listener != listenerIndex_.end() ? listener->second : kNotListed};
    if (listener == listenerIndex_.end()) {
        aloneIndex_.prefetch(server);  // a large table while a scan goes on
    } else if (!listeners_[listener->second].inFlightOrder.empty()) {
        handshakeOf_.prefetch(listeners_[listener->second].inFlightOrder.front());
    }
}

void SynBacklogDetector::onSegment(const SegmentEvent& event) {
    const bool syn = (event.segment.flags & tcpflag::kSyn) != 0;
    const bool ack = (event.segment.flags & tcpflag::kAck) != 0;
    HandshakeRef& ref = handshakeOf_.of(event.connection.id);
    if (ref.index == kNoHandshake) {
        // Without a handshake under way only two segments matter: the connection's first SYN, from
        // the client, begins one (when the capture missed it, the connection is not tracked), and a
        // SYN-ACK shows that its server listens.
        if (event.sender == Side::Client && syn && !ack && event.connection.firstFrame == event.frame) {
            ref.index = handshakes_.take();
        } else {
            if (event.sender == Side::Server && syn && ack) {
                const uint32_t listener = listenerOf(event.connection.server);
                confirmListener(listeners_[listener]);
            }
            return;
        }
    }
    Handshake& state = handshakes_[ref.index];
    onTracked(event, state);
    if (isOver(state)) {
        release(ref, event.connection.server);
    }
}

void SynBacklogDetector::onTracked(const SegmentEvent& event, Handshake& state) {
    const TcpSegment& segment = event.segment;
    const bool syn = (segment.flags & tcpflag::kSyn) != 0;
    const bool ack = (segment.flags & tcpflag::kAck) != 0;
    const bool rst = (segment.flags & tcpflag::kRst) != 0;

    if (event.sender == Side::Client) {
        state.clientSentData = state.clientSentData || segment.payloadLength > 0;
        if (syn && !ack) {
            onClientSyn(event, state);
        } else if (state.tracked && rst) {
            // The client gave up or answered a challenge ACK (a TIME_WAIT collision): not ours.
            state.excluded = state.excluded || !state.completed;
            settle(state);
        } else if (state.tracked && ack && !syn && state.answered) {
            state.clientAckedSynAck = true;
            if (!state.completed) {
                state.completed = true;
                state.completedTsNs = event.tsNs;
                settle(state);
                if (state.counted) {
                    updateDelay(state, ended_);  // its outcome is known now
                    log().changed(listeners_[state.listener].findingId);
                }
            }
        }
        return;
    }

    if (syn && ack) {
        onServerSynAck(event, state);
    } else if (state.tracked && rst) {
        onServerReset(event, state);
    } else if (state.tracked) {
        state.serverSentData = state.serverSentData || segment.payloadLength > 0 || (segment.flags & tcpflag::kFin);
        if (!state.answered && !state.completed) {
            state.excluded = true;  // a bare ACK to a SYN: the challenge ACK of a TIME_WAIT socket
        }
    }
}

void SynBacklogDetector::onClientSyn(const SegmentEvent& event, Handshake& state) {
    const ConnectionSnapshot& connection = event.connection;
    if (!state.tracked) {  // the connection's first SYN (onSegment took the record for it)
        state.tracked = true;
        state.firstSynFrame = event.frame;
        state.firstSynTsNs = event.tsNs;
        state.lastSynTsNs = event.tsNs;
        const auto timeWaitNs = static_cast<int64_t>(options().timeWaitSeconds * kNsPerSecond);
        // A SYN into the TIME_WAIT of an earlier connection on the same tuple is port_reuse's case.
        state.excluded = connection.reusedFrom != kNoConnection && connection.reuseGapNs < timeWaitNs;
        // Listeners are only ever added: the one prefetch() found for this SYN is still its own.
        uint32_t found = prefetched_.index;
        if (prefetched_.frame != event.frame) {
            const auto listener = listenerIndex_.find(connection.server);
            found = listener != listenerIndex_.end() ? listener->second : kNotListed;
        }
        if (found == kNotListed && aloneIndex_.try_emplace(connection.server, connection.id).second) {
            state.listener = kNotListed;  // the first handshake to the endpoint: alone in flight
            state.pending = true;
            return;
        }
        state.listener = found != kNotListed ? found : addListener(connection.server);
        addInFlight(listeners_[state.listener], connection.id, event.tsNs);
        return;
    }
    const auto minGapNs = static_cast<int64_t>(options().synRetransmitMinMs * kNsPerMs);
    const bool byTimeout =
        event.tsNs - state.lastSynTsNs >= minGapNs && !state.answered && !state.excluded && !state.completed;
    state.lastSynTsNs = event.tsNs;
    state.answered = false;
    state.clientAckedSynAck = false;
    if (!byTimeout) {
        return;
    }
    if (state.listener == kNotListed) {
        addListener(connection.server);  // this handshake's
    }
    Listener& listener = listeners_[state.listener];
    ++state.synTimeouts;
    state.lastCountedSynTsNs = event.tsNs;
    if (state.pending && !state.waiting) {
        state.waiting = true;
        ++listener.waiting;
        listener.peakWaiting = std::max(listener.peakWaiting, listener.waiting);
        // A full queue drops every SYN that arrives: the waiting ones crowd out the rest.
        listener.burst = listener.burst || (listener.waiting >= 2 && 2 * listener.waiting >= listener.inFlight);
    }
    if (!listener.everAnswered) {
        // Nothing has shown yet that a listener is there (a firewall drops SYNs the same way).
        if (listener.unconfirmed.size() < kMaxUnconfirmedSyns) {
            listener.unconfirmed.emplace_back(connection.id, event.frame);
            state.unconfirmedListed = true;
        }
        return;
    }
    ++listener.synRetransmissions;
    countEvidence(connection, state, event.frame, false);
}

void SynBacklogDetector::confirmListener(Listener& listener) {
    if (!listener.everAnswered) {
        listener.everAnswered = true;
        // The SYNs retransmitted before were dropped by a listener, not by a firewall.
        const auto unconfirmed = std::move(listener.unconfirmed);
        listener.unconfirmed = {};
        for (const auto& [connectionId, frame] : unconfirmed) {
            const auto retired = retiredUnconfirmed_.find(connectionId);
            Handshake* waiting = retired != retiredUnconfirmed_.end() ? &retired->second : find(connectionId);
            if (waiting != nullptr && !waiting->excluded) {
                ++listener.synRetransmissions;
                // Only the record's id and client are read: fixed at creation (see SegmentObserver).
                countEvidence(engine().connections()[connectionId], *waiting, frame, false);
            }
        }
        // Those retired meanwhile are over: their outcomes are final now that they count.
        bool finished = false;
        for (const auto& [connectionId, frame] : unconfirmed) {
            const auto retired = retiredUnconfirmed_.find(connectionId);
            if (retired != retiredUnconfirmed_.end()) {
                finish(retired->second);
                retiredUnconfirmed_.erase(retired);
                finished = true;
            }
        }
        if (finished && listener.hasFinding) {
            refresh(listener);
            log().changed(listener.findingId);
        }
    }
}

void SynBacklogDetector::onServerSynAck(const SegmentEvent& event, Handshake& state) {
    const ConnectionSnapshot& connection = event.connection;
    if (state.listener == kNotListed) {
        addListener(connection.server);  // this handshake's
    }
    Listener& listener = listeners_[state.listener];  // the SYN's: this server's
    confirmListener(listener);
    if (!state.answered) {
        state.answered = true;
        state.roundSynAckTsNs = event.tsNs;
        state.lastSynAckTsNs = event.tsNs;
        state.clientAckedSynAck = false;
        return;
    }
    // The same SYN-ACK again although the client had ACKed it: the listener dropped that ACK
    // because its accept queue was full.
    const auto minGapNs = static_cast<int64_t>(options().synRetransmitMinMs * kNsPerMs);
    // Only while the client waits for an answer to its data: a client that sent nothing (an idle
    // socket, a listener deferring accept until data comes) lost no time.
    const bool byTimeout = event.tsNs - state.lastSynAckTsNs >= minGapNs && state.clientAckedSynAck &&
                           state.clientSentData && !state.excluded && !state.serverSentData;
    state.lastSynAckTsNs = event.tsNs;
    state.clientAckedSynAck = false;
    if (!byTimeout) {
        return;
    }
    if (state.synAckTimeouts++ == 0) {
        ++listener.synAckDelayed;
    }
    state.lastCountedSynAckTsNs = event.tsNs;
    ++listener.synAckRetransmissions;
    countEvidence(connection, state, event.frame, false);
}

void SynBacklogDetector::onServerReset(const SegmentEvent& event, Handshake& state) {
    const ConnectionSnapshot& connection = event.connection;
    if (state.completed && !state.serverSentData && !state.excluded && !state.resetByServer) {
        const int64_t windowNs = 2 * std::max<int64_t>(connection.initialRttNs, 0) + kAbortMarginNs;
        if (event.tsNs - state.completedTsNs <= windowNs) {
            state.resetByServer = true;
            countEvidence(connection, state, event.frame, true);
        }
    } else if (!state.completed) {
        state.excluded = true;  // a RST to a SYN: nothing listens, or a TIME_WAIT collision
    }
    settle(state);
}

void SynBacklogDetector::addInFlight(Listener& listener, uint32_t connection, int64_t tsNs) {
    while (!listener.inFlightOrder.empty()) {
        const uint32_t oldestId = listener.inFlightOrder.front();
        // Retired or over connections have no handshake left (they were settled).
        if (Handshake* oldest = find(oldestId); oldest != nullptr) {
            if (oldest->pending && tsNs - oldest->firstSynTsNs < kAbandonedHandshakeNs) {
                break;
            }
            settle(*oldest);
        }
        listener.inFlightOrder.pop_front();
    }
    listener.inFlightOrder.push_back(connection);
    find(connection)->pending = true;
    ++listener.inFlight;
    listener.peakInFlight = std::max(listener.peakInFlight, listener.inFlight);
}

inline void SynBacklogDetector::settle(Handshake& state) {
    if (state.listener == kNotListed) {
        state.pending = false;  // alone: it counted nowhere else (and never waited, see addListener)
        return;
    }
    Listener& listener = listeners_[state.listener];
    if (state.pending) {
        state.pending = false;
        --listener.inFlight;
    }
    if (state.waiting) {
        state.waiting = false;
        --listener.waiting;
    }
}

template <typename Record>
void SynBacklogDetector::countEvidence(const Record& connection, Handshake& state, uint32_t frame, bool isReset) {
    Listener& listener = listeners_[state.listener];
    if (!listener.hasFinding) {
        Finding finding;
        finding.kind = FindingKind::SynBacklogOverflow;
        finding.severity = Severity::Warning;
        finding.tsNs = state.firstSynTsNs;
        finding.parties.server = listener.endpoint.toString();
        // The type spelled out: in a template, clang before 17 does not destroy the argument of
        // `evidence = {...}` (llvm-project#51037), and the object the evidence held leaked.
        finding.evidence =
            nlohmann::json{{"listener", finding.parties.server}, {"connections", nlohmann::json::array()}};
        listener.findingId = log().add(std::move(finding));
        listener.hasFinding = true;
    }
    Finding& finding = log().edit(listener.findingId);
    if (isReset) {
        ++listener.reset;
    } else if (!state.delayCounted) {
        state.delayCounted = true;
        ++listener.delayed;
    }
    if (!state.counted) {
        state.counted = true;
        state.waitIndex = listener.waits.add(connection.id, connection.firstTsNs, connection.firstTsNs);
        ++listener.affected;
        if (listener.listed < kMaxListedConnections) {
            state.listedIndex = listener.listed++;
            finding.evidence["connections"].push_back({{"connection", connection.id},
                                                       {"client", connection.client.toString()},
                                                       {"first_syn_frame", state.firstSynFrame}});
            // The client waited from its connection's first packet for as long as the retries took.
            finding.spans.push_back({.startNs = connection.firstTsNs,
                                     .endNs = connection.firstTsNs,
                                     .connection = connection.id,
                                     .frames = {{FrameRole::FirstSyn, state.firstSynFrame}}});
        }
        finding.totalSpans = listener.affected;
    }
    if (finding.frames.size() < kMaxListedFrames) {
        finding.frames.push_back(frame);
    }
    updateDelay(state, ended_);
    refresh(listener);
    log().changed(listener.findingId);
}

void SynBacklogDetector::updateDelay(Handshake& state, bool final) {
    // What the retries added: the time from the first SYN to the last one that was needed, and
    // from the first SYN-ACK to the last one the server had to resend. The final round itself
    // is what a normal handshake takes, so it is not counted.
    int64_t delayNs = 0;
    if (state.synTimeouts > 0) {
        delayNs += state.lastCountedSynTsNs - state.firstSynTsNs;
    }
    if (state.synAckTimeouts > 0) {
        delayNs += state.lastCountedSynAckTsNs - state.roundSynAckTsNs;
    }
    Listener& listener = listeners_[state.listener];
    listener.totalDelayNs += delayNs - state.delayNs;
    listener.maxDelayNs = std::max(listener.maxDelayNs, delayNs);
    state.delayNs = delayNs;
    if (state.waitIndex != kNotListed) {
        listener.waits.setLength(state.waitIndex, delayNs);
        listener.impactStale = true;
    }
    if (state.listedIndex == kNotListed) {
        return;
    }
    std::string outcome = "waiting";
    if (state.resetByServer) {
        outcome = "reset";
    } else if (state.completed) {
        outcome = "established";
    } else if (final) {
        outcome = "unfinished";
    }
    nlohmann::json& entry = log().edit(listener.findingId).evidence["connections"][state.listedIndex];
    entry["syn_retransmissions"] = state.synTimeouts;
    entry["synack_retransmissions"] = state.synAckTimeouts;
    entry["delay_ms"] = toMs(delayNs);
    FindingSpan& span = log().edit(listener.findingId).spans[state.listedIndex];
    span.endNs = span.startNs + delayNs;
    entry["outcome"] = outcome;
}

// The connection has no more packets: its outcome is final.
void SynBacklogDetector::finish(Handshake& state) {
    if (!state.counted) {
        return;
    }
    if (!state.completed && !state.resetByServer) {
        ++listeners_[state.listener].unfinished;
    }
    updateDelay(state, true);
}

void SynBacklogDetector::refresh(Listener& listener) {
    Finding& finding = log().edit(listener.findingId);
    const bool burst = listener.burst || listener.reset + listener.synAckDelayed >= 2;
    // Sparse drops among handshakes that complete normally are what packet loss looks like; the
    // summary says so, and the finding is context (info), not an overflow to act on.
    finding.severity = burst ? Severity::Error : Severity::Info;
    finding.durationMs = toMs(listener.totalDelayNs);
    nlohmann::json& evidence = finding.evidence;
    evidence["connections_delayed"] = listener.delayed;
    evidence["connections_reset"] = listener.reset;
    evidence["connections_unfinished"] = listener.unfinished;
    evidence["syn_retransmissions"] = listener.synRetransmissions;
    evidence["synack_retransmissions"] = listener.synAckRetransmissions;
    evidence["delay_total_ms"] = finding.durationMs;
    evidence["delay_max_ms"] = toMs(listener.maxDelayNs);
    evidence["peak_concurrent_handshakes"] = listener.peakInFlight;
    evidence["peak_waiting_handshakes"] = listener.peakWaiting;
    evidence["connections_truncated"] = listener.affected > listener.listed;

    std::string what;
    const std::string unfinished =
        listener.unfinished > 0 ? fmt::format(", {} never established", listener.unfinished) : std::string();
    if (listener.reset == 0) {
        // Connections wait at once: their delays added up are connection-time, not time the service lost.
        what = fmt::format("{} waited for the handshake, up to {:.1f} ms each ({:.1f} ms of connection-time added up){}",
                           plural(listener.delayed, "connection", "connections"), toMs(listener.maxDelayNs),
                           finding.durationMs, unfinished);
    } else if (listener.delayed == 0) {
        what = fmt::format("{} reset by the server right after the handshake",
                           plural(listener.reset, "connection was", "connections were"));
    } else {
        what = fmt::format(
            "{} suffered ({} waited for the handshake, up to {:.1f} ms each, {:.1f} ms of connection-time added "
            "up{}; {} reset right after it)",
            plural(listener.affected, "connection", "connections"), listener.delayed, toMs(listener.maxDelayNs),
            finding.durationMs, unfinished, plural(listener.reset, "was", "were"));
    }
    std::vector<std::string> causes;
    if (listener.synRetransmissions > 0) {
        causes.push_back(
            burst ? fmt::format("dropped {} (the clients retransmitted them)",
                                plural(listener.synRetransmissions, "SYN", "SYNs"))
                  : fmt::format("{} retransmitted", plural(listener.synRetransmissions, "SYN was", "SYNs were")));
    }
    if (listener.synAckRetransmissions > 0) {
        causes.push_back(burst ? fmt::format("ignored final ACKs (the server resent its SYN-ACK {} times)",
                                             listener.synAckRetransmissions)
                               : fmt::format("the SYN-ACK was resent {} times", listener.synAckRetransmissions));
    }
    if (listener.reset > 0 && burst) {
        causes.push_back(
            fmt::format("reset {} (tcp_abort_on_overflow)", plural(listener.reset, "connection", "connections")));
    }
    std::string cause;
    for (size_t index = 0; index < causes.size(); ++index) {
        cause += (index == 0 ? "" : index + 1 == causes.size() ? " and " : ", ") + causes[index];
    }
    const std::string name = listener.endpoint.toString();
    if (burst) {
        finding.summary = fmt::format(
            "Listener {}: {} while up to {} handshakes were in flight at once, because its accept queue was full "
            "and the kernel {}; fix: accept faster (more acceptor threads, a non-blocking accept loop), raise the "
            "listen() backlog together with net.core.somaxconn and net.ipv4.tcp_max_syn_backlog, or limit the "
            "clients' connection burst.",
            name, what, listener.peakInFlight, cause);
    } else {
        finding.summary = fmt::format(
            "Listener {}: {}{}{}, while the other handshakes of the time completed normally, so this looks more "
            "like packet loss than a full accept queue; if the server is busy, check its accept queue (ss -lnt, "
            "nstat TcpExtListenOverflows), accept faster, or raise the listen() backlog and net.core.somaxconn.",
            name, what, cause.empty() ? "" : ": ", cause);
    }
}

// Live: the handshakes of a listener with a finding that had a SYN dropped and have had no answer
// since are still waiting, though their next SYN retransmission (1, 2, 4 ... s apart) has not come.
void SynBacklogDetector::onClock(int64_t nowNs) {
    for (Listener& listener : listeners_) {
        if (listener.hasFinding && (listener.waiting > 0 || listener.ongoing)) {
            showWaiting(listener, nowNs);
        }
        if (listener.hasFinding && listener.impactStale) {
            writeImpact(listener);
        }
    }
}

// Measured from every wait at once, so only now and then (the end, the clock): measuring at each
// packet would cost the listener's connections at each of their packets.
void SynBacklogDetector::writeImpact(Listener& listener) {
    Finding& finding = log().edit(listener.findingId);
    setImpact(finding, listener.waits);
    listener.impactStale = false;
    log().changed(listener.findingId);
}

void SynBacklogDetector::showWaiting(Listener& listener, int64_t nowNs) {
    uint32_t waiting = 0;
    int64_t waitedNs = 0;
    int64_t longestNs = 0;
    for (size_t index = 0; index < listener.inFlightOrder.size(); ++index) {
        const uint32_t connection = listener.inFlightOrder[index];
        const Handshake* state = find(connection);
        if (state == nullptr) {
            continue;  // retired or over (and settled before)
        }
        if (state->pending && state->waiting && state->counted && !state->answered && !state->completed) {
            const int64_t sinceNs = std::max<int64_t>(nowNs - state->lastCountedSynTsNs, 0);
            ++waiting;
            waitedNs += sinceNs;
            longestNs = std::max(longestNs, sinceNs);
        }
    }
    if (waiting == 0 && !listener.ongoing) {
        return;
    }
    refresh(listener);  // the delays the packets showed
    Finding& finding = log().edit(listener.findingId);
    listener.ongoing = waiting > 0;
    finding.ongoing = listener.ongoing;
    if (waiting == 0) {
        finding.evidence.erase("ongoing");
    } else {
        finding.durationMs += toMs(waitedNs);
        finding.evidence["ongoing"] = {{"handshakes_waiting", waiting}, {"longest_wait_ms", toMs(longestNs)}};
        finding.summary += fmt::format(" Still waiting: {} for an answer to a retransmitted SYN (the longest for "
                                       "{:.1f} ms so far).",
                                       plural(waiting, "handshake", "handshakes"), toMs(longestNs));
    }
    log().changed(listener.findingId);
}

void SynBacklogDetector::onEnd(int64_t /*lastTsNs*/) {
    ended_ = true;
    for (const HandshakeRef& ref : handshakeOf_) {  // in connection order; retired ones were finished by onRetire
        if (ref.index != kNoHandshake) {
            finish(handshakes_[ref.index]);
        }
    }
    for (Listener& listener : listeners_) {
        if (listener.hasFinding) {
            if (listener.ongoing) {  // what the clock showed is over: the outcomes are final
                listener.ongoing = false;
                Finding& finding = log().edit(listener.findingId);
                finding.ongoing = false;
                finding.evidence.erase("ongoing");
            }
            refresh(listener);
            writeImpact(listener);
        }
    }
}

void SynBacklogDetector::onRetire(const Connection& connection) {
    HandshakeRef& ref = handshakeOf_.of(connection.id);
    if (ref.index != kNoHandshake) {
        Handshake& state = handshakes_[ref.index];
        // Over: closed (settled already) or idle for longer than a client retries a SYN (abandoned,
        // as the next addInFlight would find it). The listener's queue skips it from now on.
        settle(state);
        if (state.unconfirmedListed && !listeners_[state.listener].everAnswered) {
            retiredUnconfirmed_.emplace(connection.id, state);  // counted if the listener answers later
        } else if (state.counted) {
            Listener& listener = listeners_[state.listener];
            finish(state);
            refresh(listener);
            log().changed(listener.findingId);
        }
        release(ref, connection.server);
    }
    handshakeOf_.release(connection.id);
}

}  // namespace tcpscope
