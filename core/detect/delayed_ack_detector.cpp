#include "detect/delayed_ack_detector.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr size_t kMaxListedStalls = 1000;  // evidence keeps the first ones; counts and totals keep all
constexpr uint32_t kTimestampOptionBytes = 12;

double toMs(int64_t ns) { return static_cast<double>(ns) / kNsPerMs; }

// The connection's life so far, at least 1 ns (the share of it a finding cost).
int64_t lifeOf(const Connection& connection) { return std::max<int64_t>(connection.lastTsNs - connection.firstTsNs, 1); }

bool isPureAck(const TcpSegment& segment) {
    return segment.payloadLength == 0 && (segment.flags & (tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst)) == 0 &&
           (segment.flags & tcpflag::kAck) != 0;
}

bool isResent(AnalysisFlags flags) {
    return has(flags, AnalysisFlag::Retransmission) || has(flags, AnalysisFlag::OutOfOrder) ||
           has(flags, AnalysisFlag::ZeroWindowProbe) || has(flags, AnalysisFlag::KeepAlive);
}

}  // namespace

DelayedAckDetector::SenderState& DelayedAckDetector::stateOf(uint32_t connection, Side side) {
    return states_.of(connection, sideIndex(side));
}

// Nagle holds back only segments smaller than the sender's MSS. The MSS is the one the peer
// announced (less the timestamp option); without a handshake, the largest segment seen so far.
bool DelayedAckDetector::isSmall(const Connection& connection, Side sender, uint32_t length,
                                 const SenderState& state) const {
    const DirectionSummary& peer = connection.from(otherSide(sender));
    if (peer.mss != 0) {
        const uint32_t overhead = connection.from(sender).timestamps && peer.timestamps ? kTimestampOptionBytes : 0;
        return length + overhead < peer.mss;
    }
    return length < state.largestSegment;
}

void DelayedAckDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const Connection& connection = event.connection;
    SenderState& own = stateOf(connection.id, event.sender);
    SenderState& peer = stateOf(connection.id, otherSide(event.sender));

    // As the peer of a pending small segment: is this the late, pure ACK that releases it?
    if (peer.smallPending && (segment.flags & tcpflag::kAck) != 0 && seq::ge(segment.ack, peer.smallEndSeq)) {
        peer.smallPending = false;
        const int64_t ackDelayNs = event.tsNs - peer.smallTsNs;
        if (isPureAck(segment) && ackDelayNs >= static_cast<int64_t>(options().delayedAckFloorMs * kNsPerMs)) {
            peer.ackSeen = true;
            peer.ackFrame = event.frame;
            peer.ackTsNs = event.tsNs;
        }
    }

    if (segment.payloadLength == 0) {
        return;
    }
    // As a sender of data.
    const bool small = isSmall(connection, event.sender, segment.payloadLength, own);
    own.largestSegment = std::max(own.largestSegment, segment.payloadLength);
    if (own.ackSeen) {
        own.ackSeen = false;
        const int64_t rttNs = std::max<int64_t>(connection.handshakeRttNs(), 0);
        const int64_t releaseNs = static_cast<int64_t>(options().nagleReleaseMs * kNsPerMs) + rttNs;
        if (small && !isResent(event.analysis) && event.tsNs - own.ackTsNs <= releaseNs) {
            recordStall(event, own);
        }
    }
    own.smallPending = small && !isResent(event.analysis);
    if (own.smallPending) {
        own.smallFrame = event.frame;
        own.smallTsNs = event.tsNs;
        own.smallEndSeq = segment.seq + segment.payloadLength;
        own.smallLength = segment.payloadLength;
    }
}

void DelayedAckDetector::recordStall(const SegmentEvent& held, SenderState& state) {
    const Connection& connection = held.connection;
    const int64_t holdNs = held.tsNs - state.smallTsNs;
    if (state.totals == kNoTotals) {
        Finding finding;
        finding.kind = "delayed_ack_stall";
        finding.severity = Severity::Warning;
        finding.connection = connection.id;
        finding.tsNs = state.smallTsNs;
        state.totals = static_cast<uint32_t>(totals_.size());
        Totals& totals = totals_.emplace_back();
        totals.firstTsNs = state.smallTsNs;
        totals.sender = held.sender;
        totals.senderEndpoint = connection.endpoint(held.sender);
        totals.receiverEndpoint = connection.endpoint(otherSide(held.sender));
        totals.findingId = log().add(std::move(finding), this, state.totals);
    }
    Totals& totals = totals_[state.totals];
    ++totals.stalls;
    totals.heldNs += holdNs;
    totals.lifeNs = lifeOf(connection);
    if (totals.stalls <= kMaxListedStalls) {
        totals.listed.push_back(Stall{state.smallFrame, state.ackFrame, held.frame, state.smallLength,
                                      held.segment.payloadLength, state.smallTsNs, state.ackTsNs, held.tsNs});
    }
    log().changed(totals.findingId);
}

void DelayedAckDetector::describe(uint32_t record, Finding& finding) const {
    const Totals& totals = totals_[record];
    const double share = std::min(1.0, static_cast<double>(totals.heldNs) / static_cast<double>(totals.lifeNs));
    finding.durationMs = toMs(totals.heldNs);
    finding.frames.clear();
    nlohmann::json instances = nlohmann::json::array();
    for (const Stall& stall : totals.listed) {
        finding.frames.insert(finding.frames.end(), {stall.smallFrame, stall.ackFrame, stall.heldFrame});
        // Member by member: an initializer list would copy every value once more.
        nlohmann::json::object_t instance;
        instance.emplace("frames", std::vector<uint32_t>{stall.smallFrame, stall.ackFrame, stall.heldFrame});
        instance.emplace("ts_offset_ms", toMs(stall.smallTsNs - totals.firstTsNs));
        instance.emplace("hold_ms", toMs(stall.heldTsNs - stall.smallTsNs));
        instance.emplace("ack_delay_ms", toMs(stall.ackTsNs - stall.smallTsNs));
        instance.emplace("previous_bytes", stall.previousBytes);
        instance.emplace("held_bytes", stall.heldBytes);
        instances.push_back(std::move(instance));
    }
    const std::string sender = totals.senderEndpoint.toString();
    const std::string receiver = totals.receiverEndpoint.toString();
    finding.evidence = {{"sender", sender},
                        {"receiver", receiver},
                        {"sender_side", sideName(totals.sender)},
                        {"stalls", totals.stalls},
                        {"held_ms", finding.durationMs},
                        {"share_of_connection", std::round(share * 1000) / 1000},
                        {"instances", std::move(instances)},
                        {"instances_truncated", totals.stalls > kMaxListedStalls}};
    const std::string what =
        totals.stalls == 1 ? std::string("a small write was") : fmt::format("{} small writes were", totals.stalls);
    finding.summary = fmt::format(
        "{} -> {}: {} held back by Nagle's algorithm until the peer's delayed ACK, {:.1f} ms lost ({:.0f}% of the "
        "connection's life); fix: set TCP_NODELAY on the sender, or send each message in one write (writev, a "
        "buffered writer, TCP_CORK then uncork), or TCP_QUICKACK on the receiver.",
        sender, receiver, what, finding.durationMs, share * 100);
}

void DelayedAckDetector::onEnd(int64_t /*lastTsNs*/) {
    // The connections' lives are final now: update the shares (in connection order, as before).
    const auto& connections = engine().connections();
    for (size_t index = 0; index < states_.size(); ++index) {
        if (!states_.holds(index)) {
            continue;  // retired connections, refreshed by onRetire
        }
        const SenderState& state = states_[index];
        if (state.totals != kNoTotals) {
            Totals& totals = totals_[state.totals];
            totals.lifeNs = lifeOf(connections[index / 2]);
            log().changed(totals.findingId);
        }
    }
}

void DelayedAckDetector::onRetire(const Connection& connection) {
    // Its life is final: update its shares now, as onEnd does for the connections still live.
    for (const Side side : {Side::Client, Side::Server}) {
        const SenderState& state = stateOf(connection.id, side);
        if (state.totals != kNoTotals) {
            Totals& totals = totals_[state.totals];
            totals.lifeNs = lifeOf(connection);
            log().changed(totals.findingId);
        }
    }
    states_.release(connection.id);
}

}  // namespace tcpscope
