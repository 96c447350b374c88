#include "detect/delayed_ack_detector.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "detect/support/evidence_json.hpp"
#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr size_t kMaxListedStalls = 1000;  // evidence keeps the first ones; counts and totals keep all
constexpr uint32_t kTimestampOptionBytes = 12;
// RFC 1122 4.2.3.2: an ACK may be delayed, but by less than 0.5 s.
constexpr int64_t kMaxAckDelayNs = 500 * kNsPerMs;
// Without an MSS from the handshake, only what is smaller than the least MSS any path has is
// surely smaller than the sender's (a sender-side capture with segmentation offload shows
// segments of several MSS, so the largest seen is no measure of it).
constexpr uint32_t kMinimumMss = 536;

double toMs(int64_t ns) { return static_cast<double>(ns) / kNsPerMs; }

bool isPureAck(const TcpSegment& segment) {
    return segment.payloadLength == 0 && (segment.flags & (tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst)) == 0 &&
           (segment.flags & tcpflag::kAck) != 0;
}

bool isResent(AnalysisFlags flags) {
    return has(flags, AnalysisFlag::Retransmission) || has(flags, AnalysisFlag::OutOfOrder) ||
           has(flags, AnalysisFlag::ZeroWindowProbe) || has(flags, AnalysisFlag::KeepAlive);
}

// Where the capture was taken, from the round trips of the handshake to each end: near the end
// whose round trip is a small part of the whole, else in the path.
std::string_view capturePointName(int64_t senderLegNs, int64_t receiverLegNs) {
    if (senderLegNs < 0 || receiverLegNs < 0) {
        return "unknown";
    }
    const int64_t total = senderLegNs + receiverLegNs;
    if (total < kNsPerMs) {
        return "at both ends (round trip under 1 ms)";
    }
    if (senderLegNs * 5 <= total) {
        return "near the sender";
    }
    if (receiverLegNs * 5 <= total) {
        return "near the receiver";
    }
    return "in the path";
}

}  // namespace

DelayedAckDetector::SenderState& DelayedAckDetector::stateOf(uint32_t connection, Side side) {
    return states_.of(connection, sideIndex(side));
}

// Nagle holds back only segments smaller than the sender's MSS. The MSS is the one the peer
// announced (less the timestamp option); without a handshake, what is under the least MSS and
// under the largest segment seen so far. A segment as large as the largest the side sent, and
// not under the least MSS, is taken as full-sized too (a path MTU below the announced MSS).
bool DelayedAckDetector::isSmall(const ConnectionSnapshot& connection, Side sender, uint32_t length,
                                 const SenderState& state) const {
    const ConnectionSnapshot::Sent& peer = connection.from(otherSide(sender));
    if (peer.mss != 0) {
        const uint32_t overhead = connection.from(sender).timestamps && peer.timestamps ? kTimestampOptionBytes : 0;
        const bool asLargeAsAny = length >= kMinimumMss && length >= state.largestSegment;
        return length + overhead < peer.mss && !asLargeAsAny;
    }
    return length < kMinimumMss && length < state.largestSegment;
}

void DelayedAckDetector::releasePending(SenderState& state) {
    if (state.pending != kNoPending) {
        pending_.release(state.pending);
        state.pending = kNoPending;
    }
}

void DelayedAckDetector::prefetch(const SegmentEvent& event) const { states_.prefetch(event.connection.id); }

int64_t DelayedAckDetector::receiverLegNs(const ConnectionSnapshot& connection, Side sender,
                                          const SenderState& state) {
    const int64_t fromHandshake = connection.legToNs(otherSide(sender));
    if (fromHandshake >= 0) {
        return fromHandshake;
    }
    return state.quickestAckUs != UINT32_MAX ? int64_t{state.quickestAckUs} * 1000 : -1;
}

// A side sends no new data after its FIN (a later segment of it could only be resent), so its
// small segment waiting, or the late ACK of it, can hold back nothing any more: the FIN gives its
// record back, or a side whose last small segment was ACKed late would keep it to the end (W1:
// most of 215,000 records). Not a RST, which a stack may ignore (out of its window).
void DelayedAckDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const bool ack = (segment.flags & tcpflag::kAck) != 0;
    const bool fin = (segment.flags & tcpflag::kFin) != 0;
    if (segment.payloadLength == 0 && !ack) {
        if (fin) {
            releasePending(stateOf(event.connection.id, event.sender));
        }
        return;  // neither data nor the ACK of a small segment
    }
    const ConnectionSnapshot& connection = event.connection;
    SenderState* const sides = states_.allOf(connection.id);
    SenderState& own = sides[sideIndex(event.sender)];
    SenderState& peer = sides[sideIndex(otherSide(event.sender))];

    // As the peer of a pending small segment: is this the late, pure ACK that releases it?
    if (ack && peer.pending != kNoPending) {
        Pending& waiting = pending_[peer.pending];
        if (waiting.smallPending && seq::ge(segment.ack, waiting.smallEndSeq)) {
            waiting.smallPending = false;
            const int64_t ackDelayNs = event.tsNs - waiting.smallTsNs;
            if (ackDelayNs >= 0 && ackDelayNs < int64_t{UINT32_MAX} * 1000) {
                peer.quickestAckUs = std::min(peer.quickestAckUs, static_cast<uint32_t>(ackDelayNs / 1000));
            }
            const int64_t legNs = receiverLegNs(connection, otherSide(event.sender), peer);
            const int64_t lateNs = ackDelayNs - std::max<int64_t>(legNs, 0);
            // An ACK of data the capture never saw: packets are missing, the delay is not the timer's.
            const bool coversUnseen = seq::gt(segment.ack, peer.highestEnd + 1);
            if (isPureAck(segment) && legNs >= 0 && !coversUnseen &&
                lateNs >= static_cast<int64_t>(options().delayedAckFloorMs * kNsPerMs) &&
                lateNs <= kMaxAckDelayNs) {
                waiting.ackSeen = true;
                waiting.ackFrame = event.frame;
                waiting.ackTsNs = event.tsNs;
                waiting.ackLateNs = lateNs;
                waiting.receiverLegNs = legNs;
            } else {
                releasePending(peer);  // acknowledged in time, or not by a delayed-ACK timer
            }
        }
    }

    if (segment.payloadLength == 0) {
        if (fin) {
            releasePending(own);
        }
        return;
    }
    // As a sender of data. What the peer sends next may answer it, so the peer's small segment
    // (or its late ACK) can no longer explain a wait.
    if (peer.pending != kNoPending) {
        pending_[peer.pending].peerSpoke = true;
    }
    const uint32_t end = segment.seq + segment.payloadLength;
    if (own.largestSegment == 0 || seq::gt(end, own.highestEnd)) {
        own.highestEnd = end;
    }
    const bool small = isSmall(connection, event.sender, segment.payloadLength, own);
    own.largestSegment = std::max(own.largestSegment, segment.payloadLength);
    if (own.pending != kNoPending && pending_[own.pending].ackSeen) {
        const Pending& previous = pending_[own.pending];
        // D leaves the sender as the ACK arrives there: at the capture point, one round trip to the
        // sender after the ACK (the release margin later at most; sooner than three quarters of it,
        // D left before the ACK could have reached the sender).
        const int64_t senderLegNs = std::max<int64_t>(connection.legToNs(event.sender), 0);
        const int64_t releaseNs = static_cast<int64_t>(options().nagleReleaseMs * kNsPerMs) + senderLegNs;
        const int64_t earliestNs = senderLegNs * 3 / 4 - kNsPerMs;
        const int64_t afterAckNs = event.tsNs - previous.ackTsNs;
        if (small && !previous.peerSpoke && !isResent(event.analysis) && afterAckNs <= releaseNs &&
            afterAckNs >= earliestNs) {
            recordStall(event, previous);
        }
    }
    if (!small || isResent(event.analysis) || fin) {  // nothing this side sends later waits behind it
        releasePending(own);
        return;
    }
    if (own.pending == kNoPending) {
        own.pending = pending_.take();
    }
    Pending& pending = pending_[own.pending];
    pending = Pending{};
    pending.smallPending = true;
    pending.smallFrame = event.frame;
    pending.smallTsNs = event.tsNs;
    pending.smallEndSeq = end;
    pending.smallLength = segment.payloadLength;
}

void DelayedAckDetector::recordStall(const SegmentEvent& held, const Pending& pending) {
    const ConnectionSnapshot& connection = held.connection;
    const int64_t holdNs = held.tsNs - pending.smallTsNs;
    const auto [slot, isNew] =
        totalsOf_.try_emplace(sideKey(connection.id, held.sender), static_cast<uint32_t>(totals_.size()));
    if (isNew) {
        Finding finding;
        finding.kind = FindingKind::DelayedAckStall;
        finding.severity = Severity::Warning;
        finding.connection = connection.id;
        finding.tsNs = pending.smallTsNs;
        Totals& totals = totals_.append();
        totals.firstTsNs = pending.smallTsNs;
        totals.sender = held.sender;
        totals.senderEndpoint = connection.endpoint(held.sender);
        totals.receiverEndpoint = connection.endpoint(otherSide(held.sender));
        totals.receiverLegNs = connection.legToNs(otherSide(held.sender));
        totals.senderLegNs = connection.legToNs(held.sender);
        totals.findingId = log().add(std::move(finding), this, slot->second);
    }
    Totals& totals = totals_[slot->second];
    ++totals.stalls;
    totals.heldNs += holdNs;
    totals.waits.add(connection.id, pending.smallTsNs, held.tsNs);
    totals.lifeNs = lifeOf(connection);
    if (totals.stalls <= kMaxListedStalls) {
        totals.listed.push_back(Stall{pending.smallFrame, pending.ackFrame, held.frame, pending.smallLength,
                                      held.segment.payloadLength, pending.smallTsNs, pending.ackTsNs, held.tsNs,
                                      pending.ackLateNs, pending.receiverLegNs});
    }
    log().changed(totals.findingId);
}

void DelayedAckDetector::measure(uint32_t record, Finding& finding) const {
    finding.durationMs = toMs(totals_[record].heldNs);
    setImpact(finding, totals_[record].waits);
}

// What rules out the look-alikes, in numbers from the first stall: how late the ACK was beyond the
// round trip, and that D answered nothing.
std::string DelayedAckDetector::whyNagle(const Totals& totals) {
    if (totals.listed.empty()) {
        return "no data from the peer in between";
    }
    const Stall& first = totals.listed.front();
    return fmt::format(
        "the first ACK came {:.1f} ms after the data where the round trip from the capture point is {:.1f} ms "
        "(late by {:.1f} ms: a delayed-ACK timer), the held segment left {:.1f} ms after it, and the peer sent no data "
        "in between that it could answer",
        toMs(first.ackTsNs - first.smallTsNs), toMs(first.receiverLegNs), toMs(first.ackLateNs),
        toMs(first.heldTsNs - first.ackTsNs));
}

nlohmann::json DelayedAckDetector::evidence(const Totals& totals, double heldMs, double share) {
    nlohmann::json::array_t instances;
    instances.reserve(totals.listed.size());
    for (const Stall& stall : totals.listed) {
        // Member by member: an initializer list would copy every value once more.
        nlohmann::json::object_t instance;
        instance.emplace("frames", frameList({stall.smallFrame, stall.ackFrame, stall.heldFrame}));
        instance.emplace("ts_offset_ms", toMs(stall.smallTsNs - totals.firstTsNs));
        instance.emplace("hold_ms", toMs(stall.heldTsNs - stall.smallTsNs));
        instance.emplace("ack_delay_ms", toMs(stall.ackTsNs - stall.smallTsNs));
        instance.emplace("ack_late_ms", toMs(stall.ackLateNs));
        instance.emplace("round_trip_ms", toMs(stall.receiverLegNs));
        instance.emplace("previous_bytes", stall.previousBytes);
        instance.emplace("held_bytes", stall.heldBytes);
        instances.push_back(std::move(instance));
    }
    nlohmann::json::object_t evidence;
    evidence.emplace("sender", totals.senderEndpoint.toString());
    evidence.emplace("receiver", totals.receiverEndpoint.toString());
    evidence.emplace("sender_side", sideName(totals.sender));
    evidence.emplace("stalls", totals.stalls);
    evidence.emplace("held_ms", heldMs);
    evidence.emplace("share_of_connection", std::round(share * 1000) / 1000);
    evidence.emplace("instances", std::move(instances));
    evidence.emplace("instances_truncated", totals.stalls > kMaxListedStalls);
    evidence.emplace("capture_point", capturePointName(totals.senderLegNs, totals.receiverLegNs));
    return evidence;
}

void DelayedAckDetector::describe(uint32_t record, Finding& finding, Detail detail) const {
    const Totals& totals = totals_[record];
    const double share = std::min(1.0, static_cast<double>(totals.heldNs) / static_cast<double>(totals.lifeNs));
    measure(record, finding);
    finding.frames.clear();
    finding.frames.reserve(3 * totals.listed.size());
    finding.spans.clear();
    finding.spans.reserve(totals.listed.size());
    finding.totalSpans = totals.stalls;
    finding.waitingSide = totals.sender;
    for (const Stall& stall : totals.listed) {
        finding.frames.insert(finding.frames.end(), {stall.smallFrame, stall.ackFrame, stall.heldFrame});
        FindingSpan& span = finding.spans.emplace_back();
        span.startNs = stall.smallTsNs;
        span.endNs = stall.heldTsNs;
        span.connection = finding.connection;
        span.side = totals.sender;
        span.frames = {{FrameRole::SmallSegment, stall.smallFrame},
                       {FrameRole::LateAck, stall.ackFrame},
                       {FrameRole::HeldSegment, stall.heldFrame}};
        span.releaseTsNs = stall.ackTsNs;
        span.bytes = stall.heldBytes;
        span.earlierBytes = stall.previousBytes;
    }
    const std::string sender = totals.senderEndpoint.toString();
    const std::string receiver = totals.receiverEndpoint.toString();
    if (detail == Detail::Full) {
        finding.evidence = evidence(totals, finding.durationMs, share);
    }
    const std::string what =
        totals.stalls == 1 ? std::string("a small write was") : fmt::format("{} small writes were", totals.stalls);
    finding.summary = fmt::format(
        "{} -> {}: {} held back by Nagle's algorithm until the peer's delayed ACK, {:.1f} ms lost ({:.0f}% of the "
        "connection's life); {}; fix: set TCP_NODELAY on the sender, or send each message in one write (writev, a "
        "buffered writer, TCP_CORK then uncork), or TCP_QUICKACK on the receiver.",
        sender, receiver, what, finding.durationMs, share * 100, whyNagle(totals));
}

void DelayedAckDetector::refreshLife(uint32_t totalsIndex, const Connection& connection) {
    Totals& totals = totals_[totalsIndex];
    totals.lifeNs = lifeOf(connection);
    log().changed(totals.findingId);
}

void DelayedAckDetector::onEnd(int64_t /*lastTsNs*/) {
    // The connections' lives are final now: update the shares (in connection order;
    // the retired connections were refreshed by onRetire and have left totalsOf_).
    std::vector<std::pair<uint32_t, uint32_t>> live(totalsOf_.begin(), totalsOf_.end());
    std::sort(live.begin(), live.end());
    const auto& connections = engine().connections();
    for (const auto& [key, totalsIndex] : live) {
        refreshLife(totalsIndex, connections[key / 2]);
    }
    // The findings are described from totals_ alone: the per-side state goes before they are.
    states_.clear();
    pending_.clear();
    totalsOf_ = {};
}

void DelayedAckDetector::onRetire(const Connection& connection) {
    // Its life is final: update its shares now, as onEnd does for the connections still live.
    for (const Side side : {Side::Client, Side::Server}) {
        if (const auto found = totalsOf_.find(sideKey(connection.id, side)); found != totalsOf_.end()) {
            refreshLife(found->second, connection);
            totalsOf_.erase(found);
        }
        releasePending(stateOf(connection.id, side));
    }
    states_.release(connection.id);
}

}  // namespace tcpscope
