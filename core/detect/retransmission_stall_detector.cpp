#include "detect/retransmission_stall_detector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "detect/support/evidence_json.hpp"
#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr size_t kMaxListedStalls = 1000;  // evidence keeps the first ones; counts and totals keep all
// Unacknowledged transmissions remembered per side; beyond that the newest ones are merged,
// which can only make a gap look shorter, never longer.
constexpr size_t kMaxInFlight = 64;
// Timeout retransmissions of one wait kept for judgement (a backoff chain is 15 at most on Linux).
constexpr size_t kMaxCandidates = 32;

double toMs(int64_t ns) {
    return static_cast<double>(ns) / kNsPerMs;
}

bool connectionOver(const Connection& connection) {
    return connection.state == ConnectionState::Closed || connection.state == ConnectionState::Reset;
}

}  // namespace

RetransmissionStallDetector::SenderState& RetransmissionStallDetector::stateOf(uint32_t connection, Side side) {
    return states_.of(connection, sideIndex(side));
}

const RetransmissionStallDetector::Retransmitted* RetransmissionStallDetector::retransmittedOf(uint32_t connection,
                                                                                               Side side) const {
    const auto found = retransmitted_.find(connection * 2 + sideIndex(side));
    return found != retransmitted_.end() ? &found->second : nullptr;
}

void RetransmissionStallDetector::releaseInFlight(SenderState& state) {
    if (state.hasQueue()) {
        queues_.release(state.inFlight);
        state.inFlight = kNoQueue;
    }
}

void RetransmissionStallDetector::acknowledge(SenderState& state, uint32_t ack, int64_t tsNs) {
    if (!state.hasQueue()) {
        return;
    }
    SentQueue& queue = queues_[state.inFlight];
    auto acked = queue.begin();
    while (acked != queue.end() && seq::le(acked->end, ack)) {
        if (acked->captured && !acked->resent && tsNs >= acked->tsNs) {
            const int64_t delayUs = (tsNs - acked->tsNs) / 1000;
            state.quickestAckUs = static_cast<uint32_t>(std::min<int64_t>(delayUs, state.quickestAckUs));
        }
        ++acked;
    }
    if (acked == queue.end()) {
        releaseInFlight(state);  // all acknowledged: the queue serves another side meanwhile
        return;
    }
    queue.eraseFront(static_cast<size_t>(acked - queue.begin()));
    if (seq::lt(queue.front().seq, ack)) {
        queue.front().seq = ack;
    }
}

void RetransmissionStallDetector::remember(SenderState& state, uint32_t seq, uint32_t end, uint32_t frame,
                                           int64_t tsNs) {
    const auto push = [this, &state](const Sent& sent) {
        if (!state.hasQueue()) {
            state.inFlight = queues_.take();  // far below kNothingSent: one per side with data in flight
        }
        SentQueue& queue = queues_[state.inFlight];
        if (queue.size() < kMaxInFlight) {
            queue.push_back(sent);
        } else {
            Sent& last = queue.back();
            last.end = sent.end;
            last.frame = sent.frame;
            last.captured = sent.captured;
            last.tsNs = sent.tsNs;
        }
    };
    if (state.highestKnown()) {
        if (seq::le(end, state.highestEnd)) {
            return;
        }
        if (seq::gt(seq, state.highestEnd)) {
            // The capture missed [highestEnd, seq): it was sent before this segment, which is
            // the latest it can have left (the earliest would overstate the stall).
            push(Sent{state.highestEnd, seq, frame, false, false, tsNs});
        }
        seq = seq::lt(seq, state.highestEnd) ? state.highestEnd : seq;
    }
    push(Sent{seq, end, frame, true, false, tsNs});  // which makes highestKnown() true
    state.highestEnd = end;
}

void RetransmissionStallDetector::prefetch(const SegmentEvent& event) const {
    states_.prefetch(event.connection.id);
}

void RetransmissionStallDetector::onSegment(const SegmentEvent& event) {
    track(event);
    if (!open_.empty()) {
        settleOpen(event.connection, Side::Client, false);
        settleOpen(event.connection, Side::Server, false);
    }
}

void RetransmissionStallDetector::track(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const ConnectionSnapshot& connection = event.connection;
    SenderState* const sides = states_.allOf(connection.id);
    SenderState& own = sides[sideIndex(event.sender)];
    SenderState& peer = sides[sideIndex(otherSide(event.sender))];

    if ((segment.flags & tcpflag::kAck) != 0) {
        if (!retransmitted_.empty()) {
            const auto found = retransmitted_.find(connection.id * 2 + sideIndex(otherSide(event.sender)));
            if (found != retransmitted_.end() && !found->second.candidates.empty() &&
                seq::gt(segment.ack, found->second.candidates.front().seq)) {
                judge(found->second, segment, event.tsNs, peer.quickestAckUs);
            }
        }
        acknowledge(peer, segment.ack, event.tsNs);
    }
    if ((segment.flags & tcpflag::kRst) != 0) {
        releaseInFlight(own);
        releaseInFlight(peer);
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
    // Data resent sooner than a round trip after it was first sent is flagged out of order (as
    // Wireshark does); after a "too big" message it is a resend all the same.
    const bool resentAfterTooBig = has(event.analysis, AnalysisFlag::OutOfOrder) &&
                                   pathMtu_.heardAbout(segment.source, segment.destination);
    if (has(event.analysis, AnalysisFlag::Retransmission) || resentAfterTooBig) {
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
    Sent from{0, 0, 0, false, false, kNoTime};
    if (state.hasQueue()) {
        for (Sent& sent : queues_[state.inFlight]) {
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
            sent.resent = true;
        }
    }
    const uint32_t highestBefore = state.highestKnown() ? state.highestEnd : end;
    remember(state, seq, end, event.frame, event.tsNs);  // any new data it carries beyond the old
    Retransmitted& history = retransmitted_[event.connection.id * 2 + sideIndex(event.sender)];
    const bool byTimeout = has(event.analysis, AnalysisFlag::Retransmission) &&
                           !has(event.analysis, AnalysisFlag::FastRetransmission);
    // Data already acknowledged (from.tsNs unknown: no longer in flight) is a spurious
    // retransmission: nobody waited for it. A FIN alone resent means all data before it was
    // acknowledged (a resend starts at the first unacknowledged byte): nobody waits for data.
    const bool finOnly = event.segment.payloadLength == 0;
    // A router refused the data as too big meanwhile: path-MTU discovery, not a loss. Timeout resends
    // of the same data that came before the router's message (sent as large, refused as well, the
    // message late or rate-limited) are part of the same episode: the data waited from its first
    // transmission, and never for a loss.
    if (from.tsNs != kNoTime && !finOnly) {
        const auto refusedBefore = [&](const Candidate& candidate) {
            return seq::lt(candidate.seq, highestBefore) && seq::gt(candidate.end, seq);
        };
        const auto earliest = std::find_if(history.candidates.begin(), history.candidates.end(), refusedBefore);
        const Sent& first = earliest != history.candidates.end() ? earliest->from : from;
        if (pathMtu_.claim(event, PathMtuResends::Resend{first.frame, first.tsNs, first.captured, highestBefore})) {
            std::erase_if(history.candidates, refusedBefore);
            history.lastRetransmissionTsNs = event.tsNs;
            return;
        }
    }
    if (byTimeout && from.tsNs != kNoTime && !finOnly) {
        // Time already counted for an earlier retransmission (the burst that follows an RTO) is
        // not counted twice.
        const int64_t startNs =
            history.lastRetransmissionTsNs == kNoTime ? from.tsNs : std::max(from.tsNs, history.lastRetransmissionTsNs);
        const int64_t gapNs = event.tsNs - startNs;
        if (gapNs >= static_cast<int64_t>(options().retransmissionStallMinMs * kNsPerMs)) {
            if (history.candidates.size() >= kMaxCandidates) {
                recordStall(history.candidates.front(), history);  // resent again since: it was needed
                history.candidates.erase(history.candidates.begin());
            }
            Candidate& candidate = history.candidates.emplace_back();
            candidate.connection = event.connection;
            candidate.from = from;
            candidate.gapNs = gapNs;
            candidate.tsNs = event.tsNs;
            candidate.frame = event.frame;
            candidate.seq = seq;
            candidate.end = end;
            candidate.sender = event.sender;
            candidate.fin = (event.segment.flags & tcpflag::kFin) != 0;
            candidate.flaggedSpurious = has(event.analysis, AnalysisFlag::SpuriousRetransmission);
        }
    }
    history.lastRetransmissionTsNs = event.tsNs;
}

namespace {

// A D-SACK (RFC 2883) for the first byte resent at `seq`: the first SACK block reports data below
// the cumulative ACK, or inside the second block (the receiver got it twice), and it covers `seq`.
// A resend whose first part was missing and whose later part was duplicated was still needed.
bool reportsDuplicate(const TcpSegment& ack, uint32_t seq) {
    if (ack.options.sackCount == 0) {
        return false;
    }
    const SackBlock& first = ack.options.sack[0];
    const bool covers = seq::le(first.left, seq) && seq::lt(seq, first.right);
    if (!covers) {
        return false;
    }
    if (seq::le(first.right, ack.ack)) {
        return true;
    }
    if (ack.options.sackCount >= 2) {
        const SackBlock& second = ack.options.sack[1];
        return seq::ge(first.left, second.left) && seq::le(first.right, second.right);
    }
    return false;
}

}  // namespace

namespace {

// The round trip from the capture point to the receiver of `sender`'s data: the quickest ACK seen of
// data sent once, or the handshake's leg if smaller (only when both legs were measurable: a capture
// with millisecond times shows 0 for the near one).
int64_t receiverLegNs(const ConnectionSnapshot& connection, Side sender, uint32_t quickestAckUs) {
    const bool handshakeKnown = connection.legToNs(Side::Client) > 0 && connection.legToNs(Side::Server) > 0;
    const int64_t handshakeNs = handshakeKnown ? connection.legToNs(otherSide(sender)) : -1;
    const int64_t quickestNs = quickestAckUs != UINT32_MAX ? int64_t{quickestAckUs} * 1000 : -1;
    if (handshakeNs < 0) {
        return quickestNs;
    }
    return quickestNs < 0 ? handshakeNs : std::min(handshakeNs, quickestNs);
}

}  // namespace

void RetransmissionStallDetector::judge(Retransmitted& history, const TcpSegment& ackSegment, int64_t ackTsNs,
                                        uint32_t quickestAckUs) {
    std::vector<Candidate> candidates = std::move(history.candidates);
    history.candidates = {};
    if (clocks_ != nullptr && clocks_->contradicted(candidates.front().connection.id)) {
        return;  // the frame times are not real: nothing to time
    }
    // The receiver had sent its FIN before a resend and answers it with a reset: its application had
    // closed the socket (a socket closed with data unread resets), so nobody waited for that data.
    const Side receiver = otherSide(candidates.front().sender);
    if ((ackSegment.flags & tcpflag::kRst) != 0) {
        std::erase_if(candidates,
                      [receiver](const Candidate& candidate) { return candidate.connection.from(receiver).sawFin; });
        if (candidates.empty()) {
            return;
        }
    }
    for (size_t index = 0; index + 1 < candidates.size(); ++index) {
        recordStall(candidates[index], history);  // resent again before any ACK: it was needed
    }
    const Candidate& last = candidates.back();
    // The ACK can answer the resend only a round trip to the receiver after it; sooner, it answers
    // the original, which arrived. Unknown or tiny round trips (a capture at the receiver) leave
    // only the D-SACK to tell.
    const int64_t legNs = receiverLegNs(last.connection, last.sender, quickestAckUs);
    const bool tooSoon = legNs >= kNsPerMs && ackTsNs - last.tsNs < legNs / 2;
    if (tooSoon || reportsDuplicate(ackSegment, last.seq)) {
        ++history.spurious;
        if (history.totals != kNoTotals) {
            ++totals_[history.totals].spurious;
            log().changed(totals_[history.totals].findingId);
        }
        return;
    }
    recordStall(last, history);
}

void RetransmissionStallDetector::judgeUnacknowledged(Retransmitted& history, const Connection& connection) {
    std::vector<Candidate> candidates = std::move(history.candidates);
    history.candidates = {};
    if (candidates.empty() || (clocks_ != nullptr && clocks_->contradicted(connection.id))) {
        return;
    }
    const Side receiver = otherSide(candidates.front().sender);
    const bool receiverClosed = connection.hasResetBy && connection.resetBy == receiver;
    const bool receiverUnheard = connection.from(receiver).packets == 0 && candidates.size() < 2;
    if (receiverClosed || receiverUnheard) {
        return;
    }
    for (const Candidate& candidate : candidates) {
        recordStall(candidate, history);
    }
}

void RetransmissionStallDetector::recordStall(const Candidate& candidate, Retransmitted& history) {
    const ConnectionSnapshot& connection = candidate.connection;
    const int64_t gapNs = candidate.gapNs;
    if (history.totals == kNoTotals) {
        Finding finding;
        finding.kind = FindingKind::RetransmissionStall;
        finding.severity = Severity::Warning;
        finding.connection = connection.id;
        finding.tsNs = candidate.tsNs - gapNs;
        history.totals = static_cast<uint32_t>(totals_.size());
        Totals& totals = totals_.append();
        totals.connection = connection.id;
        totals.sender = candidate.sender;
        totals.firstTsNs = finding.tsNs;
        totals.spurious = history.spurious;
        totals.senderEndpoint = connection.endpoint(candidate.sender);
        totals.receiverEndpoint = connection.endpoint(otherSide(candidate.sender));
        const auto open = open_.find(connection.id * 2 + sideIndex(candidate.sender));
        if (open != open_.end() && open->second.provisional) {
            // What the clock showed was this stall.
            totals.findingId = open->second.findingId;
            log().confirm(totals.findingId, std::move(finding), this, history.totals);
            open_.erase(open);
        } else {
            totals.findingId = log().add(std::move(finding), this, history.totals);
        }
    }
    Totals& totals = totals_[history.totals];
    ++totals.stalls;
    totals.lostNs += gapNs;
    totals.longestNs = std::max(totals.longestNs, gapNs);
    totals.waits.add(connection.id, candidate.tsNs - gapNs, candidate.tsNs);
    totals.lifeNs = lifeOf(connection);
    if (totals.stalls <= kMaxListedStalls) {
        const uint32_t baseSeq = connection.sequence[sideIndex(candidate.sender)].baseSeq;
        totals.listed.push_back(Stall{candidate.from.frame, candidate.frame, candidate.tsNs - gapNs, gapNs,
                                      candidate.seq - baseSeq, candidate.end - candidate.seq - (candidate.fin ? 1 : 0),
                                      candidate.from.captured, candidate.fin, candidate.flaggedSpurious});
    }
    log().changed(totals.findingId);
}

void RetransmissionStallDetector::describe(uint32_t record, Finding& finding, Detail detail) const {
    write(totals_[record], finding, detail);
}

void RetransmissionStallDetector::measure(uint32_t record, Finding& finding) const {
    measure(totals_[record], finding);
}

void RetransmissionStallDetector::measure(const Totals& totals, Finding& finding) {
    finding.durationMs = toMs(lostNsOf(totals));
    finding.ongoing = totals.ongoingNs > 0;
    setImpact(finding, totals.waits, ongoingWait(totals.ongoingSinceNs, totals.ongoingNs));
}

nlohmann::json RetransmissionStallDetector::evidence(const Totals& totals, const Finding& finding) {
    const int64_t longestNs = std::max(totals.longestNs, totals.ongoingNs);
    const double share = std::min(1.0, static_cast<double>(lostNsOf(totals)) / static_cast<double>(totals.lifeNs));
    nlohmann::json::array_t instances;
    instances.reserve(totals.listed.size());
    for (const Stall& stall : totals.listed) {
        // Member by member: an initializer list would copy every value once more.
        nlohmann::json::object_t instance;
        instance.emplace("frames", frameList({stall.fromFrame, stall.frame}));
        instance.emplace("original_captured", stall.originalCaptured);
        instance.emplace("ts_offset_ms", toMs(stall.startTsNs - totals.firstTsNs));
        instance.emplace("gap_ms", toMs(stall.gapNs));
        instance.emplace("relative_seq", stall.relativeSeq);
        instance.emplace("bytes", stall.bytes);
        instance.emplace("fin", stall.fin);
        instance.emplace("spurious", stall.spurious);
        instances.push_back(std::move(instance));
    }
    nlohmann::json::object_t evidence;
    evidence.emplace("sender", totals.senderEndpoint.toString());
    evidence.emplace("receiver", totals.receiverEndpoint.toString());
    evidence.emplace("sender_side", sideName(totals.sender));
    evidence.emplace("instances", std::move(instances));
    evidence.emplace("stalls", totals.stalls);
    evidence.emplace("lost_ms", finding.durationMs);
    evidence.emplace("longest_ms", toMs(longestNs));
    evidence.emplace("share_of_connection", std::round(share * 1000) / 1000);
    evidence.emplace("instances_truncated", totals.stalls > kMaxListedStalls);
    evidence.emplace("spurious_retransmissions", totals.spurious);
    if (finding.ongoing) {
        evidence.emplace("ongoing", nlohmann::json{{"since_frame", totals.ongoingFrame},
                                                   {"waiting_ms", toMs(totals.ongoingNs)},
                                                   {"relative_seq", totals.ongoingSeq},
                                                   {"unacknowledged_bytes", totals.ongoingBytes}});
    }
    return evidence;
}

void RetransmissionStallDetector::write(const Totals& totals, Finding& finding, Detail detail) {
    measure(totals, finding);
    const int64_t lostNs = lostNsOf(totals);
    const int64_t longestNs = std::max(totals.longestNs, totals.ongoingNs);
    const double share = std::min(1.0, static_cast<double>(lostNs) / static_cast<double>(totals.lifeNs));
    finding.frames.clear();
    finding.frames.reserve(2 * totals.listed.size());
    finding.spans.clear();
    finding.spans.reserve(totals.listed.size());
    finding.totalSpans = totals.stalls;
    finding.waitingSide = totals.sender;
    for (const Stall& stall : totals.listed) {
        finding.frames.insert(finding.frames.end(), {stall.fromFrame, stall.frame});
        FindingSpan& span = finding.spans.emplace_back();
        span.startNs = stall.startTsNs;
        span.endNs = stall.startTsNs + stall.gapNs;
        span.connection = totals.connection;
        span.side = totals.sender;
        span.frames = {{FrameRole::LastTransmission, stall.fromFrame}, {FrameRole::Retransmission, stall.frame}};
        span.bytes = stall.bytes;
        span.spurious = stall.spurious;
    }
    if (detail == Detail::Full) {
        finding.evidence = evidence(totals, finding);
    }
    const std::string sender = totals.senderEndpoint.toString();
    const std::string receiver = totals.receiverEndpoint.toString();
    const uint32_t stalls = totals.stalls + (finding.ongoing ? 1 : 0);
    std::string what =
        stalls == 1 ? std::string("1 retransmission timeout") : fmt::format("{} retransmission timeouts", stalls);
    if (finding.ongoing) {
        what += fmt::format(" (the last still waiting: no ACK and no retransmission for {:.1f} ms so far)",
                            toMs(totals.ongoingNs));
    }
    finding.summary = fmt::format(
        "{} -> {}: {} cost {:.1f} ms (longest {:.1f} ms, {:.0f}% of the connection's life): data or its ACK was "
        "lost and the sender sent it again only when its retransmission timer fired; fix the loss on the path "
        "(interface errors and drops, a full queue or congested link, a firewall or middlebox dropping packets) "
        "and keep SACK and tail loss probes enabled so that losses are repaired without waiting for the timer.",
        sender, receiver, what, finding.durationMs, toMs(longestNs), share * 100);
}

int64_t RetransmissionStallDetector::waitingSince(uint32_t connection, Side sender, const SenderState& state) const {
    const int64_t sentNs = queues_[state.inFlight].front().tsNs;
    const Retransmitted* history = retransmittedOf(connection, sender);
    return history == nullptr || history->lastRetransmissionTsNs == kNoTime
               ? sentNs
               : std::max(sentNs, history->lastRetransmissionTsNs);
}

// Live: data unacknowledged for longer than the threshold is a stall going on (the sender waits
// for its timer), though no retransmission says so yet. A scan of every side that has data in
// flight, a few times a second.
void RetransmissionStallDetector::onClock(int64_t nowNs) {
    const auto minNs = static_cast<int64_t>(options().retransmissionStallMinMs * kNsPerMs);
    const auto& connections = engine().connections();
    for (size_t index = 0; index < states_.size(); ++index) {
        if (!states_.holds(index)) {
            continue;  // retired connections
        }
        const SenderState& state = states_[index];
        const auto connectionId = static_cast<uint32_t>(index / 2);
        const Side sender = index % 2 == 0 ? Side::Client : Side::Server;
        if (!state.hasQueue() || nowNs - waitingSince(connectionId, sender, state) < minNs) {
            continue;
        }
        const Connection& connection = connections[connectionId];
        // The peer must have been heard from (a capture of one direction never sees an ACK).
        if (!connectionOver(connection) && connection.from(otherSide(sender)).packets > 0) {
            showOngoing(connection, sender, state, nowNs);
        }
    }
}

void RetransmissionStallDetector::showOngoing(const Connection& connection, Side sender, const SenderState& state,
                                              int64_t nowNs) {
    const int64_t sinceNs = waitingSince(connection.id, sender, state);
    const Sent& waiting = queues_[state.inFlight].front();
    const Retransmitted* history = retransmittedOf(connection.id, sender);
    const uint32_t totalsIndex = history != nullptr ? history->totals : kNoTotals;
    const auto [open, isNew] = open_.try_emplace(connection.id * 2 + sideIndex(sender));
    if (isNew) {
        open->second.sinceNs = sinceNs;
        if (totalsIndex != kNoTotals) {
            open->second.findingId = totals_[totalsIndex].findingId;
        } else {
            Finding finding;
            finding.kind = FindingKind::RetransmissionStall;
            finding.severity = Severity::Warning;
            finding.connection = connection.id;
            finding.tsNs = sinceNs;
            open->second.provisional = true;
            open->second.findingId = log().addProvisional(std::move(finding));
        }
    }
    // A provisional finding has no totals yet: only the stall going on counts.
    Totals provisional;
    if (totalsIndex == kNoTotals) {
        provisional.connection = connection.id;
        provisional.sender = sender;
        provisional.findingId = open->second.findingId;
        provisional.firstTsNs = sinceNs;
        provisional.senderEndpoint = connection.endpoint(sender);
        provisional.receiverEndpoint = connection.endpoint(otherSide(sender));
    }
    Totals& totals = totalsIndex != kNoTotals ? totals_[totalsIndex] : provisional;
    totals.lifeNs = lifeOf(connection);
    totals.ongoingNs = nowNs - sinceNs;
    totals.ongoingSinceNs = sinceNs;
    totals.ongoingFrame = waiting.frame;
    totals.ongoingSeq = waiting.seq - connection.sequence[sideIndex(sender)].baseSeq;
    totals.ongoingBytes = state.highestEnd - waiting.seq;
    if (totalsIndex == kNoTotals) {
        write(totals, log().edit(open->second.findingId), Detail::Full);
    }
    log().changed(open->second.findingId);
}

template <typename Record>
void RetransmissionStallDetector::settleOpen(const Record& connection, Side sender, bool force) {
    const auto open = open_.find(connection.id * 2 + sideIndex(sender));
    if (open == open_.end()) {
        return;
    }
    const SenderState& state = stateOf(connection.id, sender);
    if (!force && state.hasQueue() && waitingSince(connection.id, sender, state) == open->second.sinceNs) {
        return;  // still waiting for the same data
    }
    if (const Retransmitted* history = retransmittedOf(connection.id, sender);
        !force && history != nullptr && !history->candidates.empty()) {
        return;  // resent: the ACK will tell whether that was a stall
    }
    // The ACK came, or the retransmission (recordStall counted it if it was a stall), or the end.
    if (open->second.provisional) {
        log().withdraw(open->second.findingId);
    } else {
        Totals& totals = totals_[retransmittedOf(connection.id, sender)->totals];
        totals.ongoingNs = 0;
        log().changed(open->second.findingId);
    }
    open_.erase(open);
}

void RetransmissionStallDetector::judgeWaiting(const Connection* connection) {
    if (connection != nullptr) {
        for (const Side side : {Side::Client, Side::Server}) {
            const auto found = retransmitted_.find(connection->id * 2 + sideIndex(side));
            if (found != retransmitted_.end()) {
                judgeUnacknowledged(found->second, *connection);
            }
        }
        return;
    }
    std::vector<uint32_t> waiting;
    for (const auto& [key, history] : retransmitted_) {
        if (!history.candidates.empty()) {
            waiting.push_back(key);
        }
    }
    std::sort(waiting.begin(), waiting.end());
    for (const uint32_t key : waiting) {
        judgeUnacknowledged(retransmitted_.at(key), engine().connections()[key / 2]);
    }
}

void RetransmissionStallDetector::onEnd(int64_t /*lastTsNs*/) {
    judgeWaiting(nullptr);  // no ACK came for them: the data was still missing
    const auto& connections = engine().connections();
    while (!open_.empty()) {
        const uint32_t key = open_.begin()->first;
        settleOpen(connections[key / 2], key % 2 == 0 ? Side::Client : Side::Server, true);
    }
    // The connections' lives are final now: update the shares.
    for (Totals& totals : totals_) {
        totals.lifeNs = lifeOf(engine().connections()[totals.connection]);
        log().changed(totals.findingId);
    }
    // The findings are described from totals_ alone: the per-side state goes before they are.
    states_.clear();
    queues_.clear();
    retransmitted_ = {};
}

void RetransmissionStallDetector::onRetire(const Connection& connection) {
    judgeWaiting(&connection);
    for (const Side side : {Side::Client, Side::Server}) {
        if (!open_.empty()) {
            settleOpen(connection, side, true);  // what the clock showed ends with the connection
        }
        releaseInFlight(stateOf(connection.id, side));
        retransmitted_.erase(connection.id * 2 + sideIndex(side));
    }
    states_.release(connection.id);
}

}  // namespace tcpscope
