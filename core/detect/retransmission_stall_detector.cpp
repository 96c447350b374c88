#include "detect/retransmission_stall_detector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr size_t kMaxListedStalls = 1000;  // evidence keeps the first ones; counts and totals keep all
// Unacknowledged transmissions remembered per side; beyond that the newest ones are merged,
// which can only make a gap look shorter, never longer.
constexpr size_t kMaxInFlight = 64;

double toMs(int64_t ns) {
    return static_cast<double>(ns) / kNsPerMs;
}

// The connection's life so far, at least 1 ns (the share of it a finding cost).
int64_t lifeOf(const Connection& connection) { return std::max<int64_t>(connection.lastTsNs - connection.firstTsNs, 1); }

bool connectionOver(const Connection& connection) {
    return connection.state == ConnectionState::Closed || connection.state == ConnectionState::Reset;
}

}  // namespace

RetransmissionStallDetector::SenderState& RetransmissionStallDetector::stateOf(uint32_t connection, Side side) {
    return states_.of(connection, sideIndex(side));
}

void RetransmissionStallDetector::acknowledge(SenderState& state, uint32_t ack) {
    if (state.inFlight.empty()) {
        return;
    }
    const Sent* acked = state.inFlight.begin();
    while (acked != state.inFlight.end() && seq::le(acked->end, ack)) {
        ++acked;
    }
    state.inFlight.eraseBefore(acked);
    if (!state.inFlight.empty() && seq::lt(state.inFlight.front().seq, ack)) {
        state.inFlight.front().seq = ack;
    }
}

void RetransmissionStallDetector::remember(SenderState& state, uint32_t seq, uint32_t end, uint32_t frame,
                                           int64_t tsNs) {
    const auto push = [&state](const Sent& sent) {
        if (state.inFlight.size() < kMaxInFlight) {
            state.inFlight.push_back(sent);
        } else {
            Sent& last = state.inFlight.back();
            last.end = sent.end;
            last.frame = sent.frame;
            last.captured = sent.captured;
            last.tsNs = sent.tsNs;
        }
    };
    if (state.highestKnown) {
        if (seq::le(end, state.highestEnd)) {
            return;
        }
        if (seq::gt(seq, state.highestEnd)) {
            // The capture missed [highestEnd, seq): it was sent before this segment, which is
            // the latest it can have left (the earliest would overstate the stall).
            push(Sent{state.highestEnd, seq, frame, false, tsNs});
        }
        seq = seq::lt(seq, state.highestEnd) ? state.highestEnd : seq;
    }
    push(Sent{seq, end, frame, true, tsNs});
    state.highestKnown = true;
    state.highestEnd = end;
}

void RetransmissionStallDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const Connection& connection = event.connection;
    SenderState& own = stateOf(connection.id, event.sender);
    SenderState& peer = stateOf(connection.id, otherSide(event.sender));

    if ((segment.flags & tcpflag::kAck) != 0) {
        acknowledge(peer, segment.ack);
        if (peer.inFlight.empty() && connectionOver(connection)) {
            peer.inFlight.release();
        }
    }
    if ((segment.flags & tcpflag::kRst) != 0) {
        own.inFlight.release();
        peer.inFlight.release();
        return;
    }
    const bool fin = (segment.flags & tcpflag::kFin) != 0;
    const uint32_t length = segment.payloadLength + (fin ? 1 : 0);
    // Handshake retransmissions belong to syn_backlog_overflow and port_reuse; probes and
    // keep-alives are sent on purpose.
    if ((segment.flags & tcpflag::kSyn) != 0 || length == 0 || has(event.analysis, AnalysisFlag::ZeroWindowProbe) ||
        has(event.analysis, AnalysisFlag::KeepAlive)) {
        return;
    }
    const uint32_t end = segment.seq + length;
    if (has(event.analysis, AnalysisFlag::Retransmission)) {
        onRetransmission(event, own, end);
    } else if (!has(event.analysis, AnalysisFlag::OutOfOrder)) {
        remember(own, segment.seq, end, event.frame, event.tsNs);
    }
    own.lastSentTsNs = event.tsNs;
    own.lastSentFrame = event.frame;
}

void RetransmissionStallDetector::onRetransmission(const SegmentEvent& event, SenderState& state, uint32_t end) {
    const uint32_t seq = event.segment.seq;
    // The last transmission of this data: its original, or the retransmission before this one.
    Sent from{0, 0, 0, false, kNoTime};
    for (Sent& sent : state.inFlight) {
        if (seq::le(sent.end, seq)) {
            continue;
        }
        if (seq::ge(sent.seq, end)) {
            break;
        }
        if (from.tsNs == kNoTime) {
            from = sent;  // the lowest part is what the receiver is waiting for
        }
        sent.tsNs = event.tsNs;
        sent.frame = event.frame;
        sent.captured = true;
    }
    remember(state, seq, end, event.frame, event.tsNs);  // any new data it carries beyond the old
    if (from.tsNs == kNoTime) {
        // Data already acknowledged (a spurious retransmission), or no longer remembered.
        from = Sent{seq, end, state.lastSentFrame, false, state.lastSentTsNs};
    }
    const bool byTimeout = !has(event.analysis, AnalysisFlag::FastRetransmission);
    if (byTimeout && from.tsNs != kNoTime) {
        // Time already counted for an earlier retransmission (the burst that follows an RTO) is
        // not counted twice.
        const int64_t startNs =
            state.lastRetransmissionTsNs == kNoTime ? from.tsNs : std::max(from.tsNs, state.lastRetransmissionTsNs);
        const int64_t gapNs = event.tsNs - startNs;
        if (gapNs >= static_cast<int64_t>(options().retransmissionStallMinMs * kNsPerMs)) {
            recordStall(event, state, from, gapNs, end);
        }
    }
    state.lastRetransmissionTsNs = event.tsNs;
}

void RetransmissionStallDetector::recordStall(const SegmentEvent& event, SenderState& state, const Sent& from,
                                              int64_t gapNs, uint32_t end) {
    const Connection& connection = event.connection;
    if (state.totals == kNoTotals) {
        Finding finding;
        finding.kind = "retransmission_stall";
        finding.severity = Severity::Warning;
        finding.connection = connection.id;
        finding.tsNs = event.tsNs - gapNs;
        state.totals = static_cast<uint32_t>(totals_.size());
        Totals& totals = totals_.emplace_back();
        totals.connection = connection.id;
        totals.sender = event.sender;
        totals.firstTsNs = finding.tsNs;
        totals.senderEndpoint = connection.endpoint(event.sender);
        totals.receiverEndpoint = connection.endpoint(otherSide(event.sender));
        totals.findingId = log().add(std::move(finding), this, state.totals);
    }
    Totals& totals = totals_[state.totals];
    ++totals.stalls;
    totals.lostNs += gapNs;
    totals.longestNs = std::max(totals.longestNs, gapNs);
    totals.lifeNs = lifeOf(connection);
    if (totals.stalls <= kMaxListedStalls) {
        const uint32_t baseSeq = connection.sequence[sideIndex(event.sender)].baseSeq;
        const bool fin = (event.segment.flags & tcpflag::kFin) != 0;
        totals.listed.push_back(Stall{from.frame, event.frame, event.tsNs - gapNs, gapNs, event.segment.seq - baseSeq,
                                      end - event.segment.seq - (fin ? 1 : 0), from.captured, fin,
                                      has(event.analysis, AnalysisFlag::SpuriousRetransmission)});
    }
    log().changed(totals.findingId);
}

void RetransmissionStallDetector::describe(uint32_t record, Finding& finding) const {
    const Totals& totals = totals_[record];
    const double share = std::min(1.0, static_cast<double>(totals.lostNs) / static_cast<double>(totals.lifeNs));
    finding.durationMs = toMs(totals.lostNs);
    finding.frames.clear();
    nlohmann::json instances = nlohmann::json::array();
    for (const Stall& stall : totals.listed) {
        finding.frames.insert(finding.frames.end(), {stall.fromFrame, stall.frame});
        // Member by member: an initializer list would copy every value once more.
        nlohmann::json::object_t instance;
        instance.emplace("frames", std::vector<uint32_t>{stall.fromFrame, stall.frame});
        instance.emplace("original_captured", stall.originalCaptured);
        instance.emplace("ts_offset_ms", toMs(stall.startTsNs - totals.firstTsNs));
        instance.emplace("gap_ms", toMs(stall.gapNs));
        instance.emplace("relative_seq", stall.relativeSeq);
        instance.emplace("bytes", stall.bytes);
        instance.emplace("fin", stall.fin);
        instance.emplace("spurious", stall.spurious);
        instances.push_back(std::move(instance));
    }
    const std::string sender = totals.senderEndpoint.toString();
    const std::string receiver = totals.receiverEndpoint.toString();
    finding.evidence = {{"sender", sender},
                        {"receiver", receiver},
                        {"sender_side", sideName(totals.sender)},
                        {"instances", std::move(instances)},
                        {"stalls", totals.stalls},
                        {"lost_ms", finding.durationMs},
                        {"longest_ms", toMs(totals.longestNs)},
                        {"share_of_connection", std::round(share * 1000) / 1000},
                        {"instances_truncated", totals.stalls > kMaxListedStalls}};
    const std::string what = totals.stalls == 1 ? std::string("1 retransmission timeout")
                                                : fmt::format("{} retransmission timeouts", totals.stalls);
    finding.summary = fmt::format(
        "{} -> {}: {} cost {:.1f} ms (longest {:.1f} ms, {:.0f}% of the connection's life): data or its ACK was "
        "lost and the sender sent it again only when its retransmission timer fired; fix the loss on the path "
        "(interface errors and drops, a full queue or congested link, a firewall or middlebox dropping packets) "
        "and keep SACK and tail loss probes enabled so that losses are repaired without waiting for the timer.",
        sender, receiver, what, finding.durationMs, toMs(totals.longestNs), share * 100);
}

void RetransmissionStallDetector::onEnd(int64_t /*lastTsNs*/) {
    // The connections' lives are final now: update the shares.
    for (Totals& totals : totals_) {
        totals.lifeNs = lifeOf(engine().connections()[totals.connection]);
        log().changed(totals.findingId);
    }
}

}  // namespace tcpscope
