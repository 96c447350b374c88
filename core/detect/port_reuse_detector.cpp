#include "detect/port_reuse_detector.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "finding/finding_impact.hpp"
#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr size_t kMaxListedReuses = 1000;        // a group's evidence keeps the first ones; counts keep all
constexpr size_t kMaxListedRetransmissions = 8;  // SYN retransmissions listed per collision

double toMs(int64_t ns) { return std::round(static_cast<double>(ns) / 1e3) / 1e3; }

bool hasFlag(const TcpSegment& segment, uint16_t flag) { return (segment.flags & flag) != 0; }

bool isPlainSyn(const TcpSegment& segment) {
    return (segment.flags & (tcpflag::kSyn | tcpflag::kAck | tcpflag::kRst)) == tcpflag::kSyn;
}

bool isSynAck(const TcpSegment& segment) {
    return (segment.flags & (tcpflag::kSyn | tcpflag::kAck | tcpflag::kRst)) == (tcpflag::kSyn | tcpflag::kAck);
}

// An ACK without SYN or RST: before the SYN-ACK, a receiver that sends this is answering for an
// older connection on the same tuple (RFC 5961 challenge ACK, or the TIME_WAIT socket's ACK).
bool isBareAck(const TcpSegment& segment) {
    return (segment.flags & (tcpflag::kSyn | tcpflag::kAck | tcpflag::kRst)) == tcpflag::kAck;
}

std::string_view earlierEndName(int end) {
    static constexpr std::array<std::string_view, 4> kNames{"reset", "closed", "half_closed", "open"};
    return kNames.at(static_cast<size_t>(end));
}

// By PortReuseDetector::Reason.
constexpr std::array<std::string_view, 6> kReasonNames{"reset",            "receiver_time_wait", "time_wait_expired",
                                                       "sender_time_wait", "half_closed",        "open"};

constexpr uint32_t kGroupRecord = 1U << 31;  // a finding record that is a group, not a collision

std::string_view tristate(int value) { return value < 0 ? "unknown" : (value > 0 ? "yes" : "no"); }

}  // namespace

std::string_view portReuseOutcomeName(PortReuseDetector::Outcome outcome) {
    switch (outcome) {
        case PortReuseDetector::Outcome::AfterGone: return "after_gone";
        case PortReuseDetector::Outcome::IntoTimeWait: return "into_time_wait";
        case PortReuseDetector::Outcome::NeverClosed: return "never_closed";
        case PortReuseDetector::Outcome::Collision: return "collision";
    }
    return "unknown";
}

PortReuseDetector::ConnectionState& PortReuseDetector::stateOf(uint32_t connection) {
    return states_.of(connection);
}

void PortReuseDetector::prefetch(const SegmentEvent& event) const {
    if (event.segment.options.hasTimestamp || (event.segment.flags & (tcpflag::kRst | tcpflag::kSyn)) != 0) {
        states_.prefetch(event.connection.id);
    }
}

void PortReuseDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const ConnectionSnapshot& connection = event.connection;
    // Only a new generation of a tuple has a reuse to start and a handshake to watch.
    if (connection.reusedFrom != kNoConnection) {
        if (event.frame == connection.firstFrame) {
            startReuse(event);
        } else if (const ConnectionState& state = stateOf(connection.id);
                   state.reuse != kNoReuse && !reuses_[state.reuse].done) {
            watchHandshake(event, reuses_[state.reuse]);
        }
    }

    // What a later generation of this tuple needs to know about this one.
    if (!segment.options.hasTimestamp && (segment.flags & (tcpflag::kRst | tcpflag::kSyn)) == 0) {
        return;
    }
    ConnectionState& own = stateOf(connection.id);
    if (segment.options.hasTimestamp) {
        own.lastTsVal[sideIndex(event.sender)] = segment.options.tsVal;
        own.hasTsVal |= 1U << sideIndex(event.sender);
    }
    if (hasFlag(segment, tcpflag::kRst)) {
        own.rstTsNs = event.tsNs;
    } else if (isPlainSyn(segment)) {
        own.rstTsNs = kNoTime;  // the RST was part of a failed handshake that is being retried
    }
}

void PortReuseDetector::startReuse(const SegmentEvent& event) {
    const ConnectionSnapshot& connection = event.connection;
    // The earlier generation no longer changes (a newer one took its tuple), so it may be read while
    // the engine tracks later segments on another thread (SegmentObserver); not through at(), which
    // reads the store's size.
    const Connection& earlier = engine().connections()[connection.reusedFrom];
    const ConnectionState& earlierState = stateOf(earlier.id);
    if (onlyAnAttempt(earlier)) {
        return;  // the earlier one was only an attempt (a probe, an unanswered SYN): no connection held the tuple
    }

    Reuse reuse;
    reuse.connection = connection.id;
    reuse.earlier = earlier.id;
    reuse.synTsNs = event.tsNs;
    reuse.synFrame = event.frame;
    reuse.lastHandshakeTsNs = event.tsNs;
    reuse.client = connection.client;
    reuse.server = connection.server;

    const DirectionSummary& earlierClient = earlier.from(Side::Client);
    const DirectionSummary& earlierServer = earlier.from(Side::Server);
    int64_t endTsNs = earlier.lastTsNs;
    if (earlierState.rstTsNs != kNoTime) {
        reuse.earlierEnd = EarlierEnd::Reset;
        endTsNs = earlierState.rstTsNs;
    } else if (earlierClient.sawFin && earlierServer.sawFin) {
        // The active closer enters TIME_WAIT when the peer's FIN arrives.
        reuse.earlierEnd = EarlierEnd::Closed;
        endTsNs = std::max(earlierClient.firstFinTsNs, earlierServer.firstFinTsNs);
        reuse.hasHolder = earlier.hasActiveCloser;
        reuse.holderIsReceiver = earlier.hasActiveCloser && earlier.endpoint(earlier.activeCloser) == connection.server;
        if (reuse.hasHolder) {
            reuse.holderSide = earlier.activeCloser;
            reuse.holderEndpoint = earlier.endpoint(earlier.activeCloser);
        }
    } else if (earlierClient.sawFin || earlierServer.sawFin) {
        reuse.earlierEnd = EarlierEnd::HalfClosed;
    }
    reuse.sinceEarlierNs = event.tsNs - endTsNs;
    const auto timeWaitNs = static_cast<int64_t>(options().timeWaitSeconds * 1e9);
    reuse.timeWaitLive = reuse.holderIsReceiver && reuse.sinceEarlierNs < timeWaitNs;

    // Would a TIME_WAIT accept this SYN? Its ISN must be above what the sender sent before, or
    // its timestamp above the last one the sender used (RFC 6191).
    const Side senderBefore = earlier.client == connection.client ? Side::Client : Side::Server;
    const SequenceSummary& sentBefore = earlier.sequence[sideIndex(senderBefore)];
    if (sentBefore.nextSeq != 0) {
        reuse.isnNewer = seq::gt(event.segment.seq, sentBefore.nextSeq) ? 1 : 0;
    }
    if (event.segment.options.hasTimestamp && earlierState.hasTsValOf(senderBefore)) {
        reuse.timestampNewer = seq::gt(event.segment.options.tsVal, earlierState.lastTsVal[sideIndex(senderBefore)]);
    }

    const auto index = static_cast<uint32_t>(reuses_.size());
    reuse.index = index;
    reuses_.append() = std::move(reuse);
    stateOf(connection.id).reuse = index;
}

void PortReuseDetector::watchHandshake(const SegmentEvent& event, Reuse& reuse) {
    const TcpSegment& segment = event.segment;
    bool symptom = false;
    bool progress = false;
    if (event.sender == Side::Client) {
        if (isPlainSyn(segment) && reuse.synAckFrame == 0) {
            if (reuse.synRetransmissions++ == 0) {
                reuse.firstRetransmissionTsNs = event.tsNs;
            }
            if (reuse.synRetransmissionFrames.size() < kMaxListedRetransmissions) {
                reuse.synRetransmissionFrames.push_back(event.frame);
            }
            symptom = true;
        } else if (hasFlag(segment, tcpflag::kRst) && reuse.establishedFrame == 0) {
            if (reuse.senderRstFrame == 0) {
                reuse.senderRstFrame = event.frame;
            }
            symptom = true;
        } else if (isBareAck(segment) && reuse.synAckFrame != 0 && segment.ack == reuse.synAckIsn + 1) {
            reuse.establishedFrame = event.frame;
            reuse.establishedTsNs = event.tsNs;
            progress = true;
        }
    } else if (reuse.synAckFrame == 0) {
        if (isSynAck(segment)) {
            reuse.synAckFrame = event.frame;
            reuse.synAckIsn = segment.seq;
            progress = true;
        } else if (hasFlag(segment, tcpflag::kRst)) {
            if (reuse.receiverRstFrame == 0) {
                reuse.receiverRstFrame = event.frame;
            }
            symptom = true;
        } else if (isBareAck(segment)) {
            if (reuse.challengeAckFrame == 0) {
                reuse.challengeAckFrame = event.frame;
            }
            ++reuse.challengeAcks;
            symptom = true;
        }
    }
    if (!symptom && !progress) {
        return;
    }
    reuse.lastHandshakeTsNs = event.tsNs;
    if (!reuse.decided && (isCollision(reuse) || reuse.synAckFrame != 0)) {
        decide(reuse);
    } else if (reuse.decided && reuse.outcome == Outcome::Collision) {
        log().changed(reuse.findingId);
    }
    if (reuse.decided && (reuse.outcome != Outcome::Collision || reuse.establishedFrame != 0)) {
        reuse.done = true;
    }
}

bool PortReuseDetector::receiverMayHoldState(const Reuse& reuse) const {
    return reuse.timeWaitLive || reuse.earlierEnd == EarlierEnd::Open || reuse.earlierEnd == EarlierEnd::HalfClosed;
}

// A challenge ACK proves that the receiver still held the old connection. A RST, a reset by the
// sender, or a SYN that had to be sent again only point to a collision when the receiver could
// still hold it; otherwise they are a refused connection or a lost SYN, not a reuse problem.
bool PortReuseDetector::isCollision(const Reuse& reuse) const {
    if (reuse.challengeAckFrame != 0) {
        return true;
    }
    const bool trouble = reuse.receiverRstFrame != 0 || reuse.senderRstFrame != 0 || reuse.synRetransmissions > 0;
    return trouble && receiverMayHoldState(reuse);
}

void PortReuseDetector::decide(Reuse& reuse) {
    reuse.decided = true;
    if (isCollision(reuse)) {
        reuse.outcome = Outcome::Collision;
        recordCollision(reuse);
        return;
    }
    if (reuse.earlierEnd == EarlierEnd::Open || reuse.earlierEnd == EarlierEnd::HalfClosed) {
        reuse.outcome = Outcome::NeverClosed;
    } else if (reuse.timeWaitLive) {
        reuse.outcome = Outcome::IntoTimeWait;
    } else {
        reuse.outcome = Outcome::AfterGone;
    }
    addToGroup(reuse);
}

// Built member by member: nlohmann's initializer lists copy every value once more, which made
// this the costliest part of the report (tens of thousands of instructions per instance).
nlohmann::json PortReuseDetector::describe(const Reuse& reuse) const {
    const auto optionalFrame = [](uint32_t frame) { return frame != 0 ? nlohmann::json(frame) : nlohmann::json(); };
    nlohmann::json::object_t frames;
    frames.emplace("syn", reuse.synFrame);
    frames.emplace("challenge_ack", optionalFrame(reuse.challengeAckFrame));
    frames.emplace("receiver_rst", optionalFrame(reuse.receiverRstFrame));
    frames.emplace("sender_rst", optionalFrame(reuse.senderRstFrame));
    frames.emplace("syn_retransmissions", reuse.synRetransmissionFrames);
    frames.emplace("syn_ack", optionalFrame(reuse.synAckFrame));
    frames.emplace("handshake_ack", optionalFrame(reuse.establishedFrame));
    nlohmann::json holder;
    if (reuse.hasHolder) {
        nlohmann::json::object_t fields;
        fields.emplace("side", sideName(reuse.holderSide));
        fields.emplace("endpoint", reuse.holderEndpoint.toString());
        fields.emplace("is_receiver", reuse.holderIsReceiver);
        holder = std::move(fields);
    }
    nlohmann::json::object_t instance;
    instance.emplace("connection", reuse.connection);
    instance.emplace("earlier_connection", reuse.earlier);
    instance.emplace("earlier_end", earlierEndName(static_cast<int>(reuse.earlierEnd)));
    instance.emplace("since_earlier_end_ms", toMs(reuse.sinceEarlierNs));
    instance.emplace("time_wait_holder", std::move(holder));
    instance.emplace("time_wait_live", reuse.timeWaitLive);
    instance.emplace("isn_newer", tristate(reuse.isnNewer));
    instance.emplace("timestamp_newer", tristate(reuse.timestampNewer));
    instance.emplace("syn_retransmissions", reuse.synRetransmissions);
    instance.emplace("challenge_acks", reuse.challengeAcks);
    instance.emplace("frames", std::move(frames));
    return instance;
}

uint32_t PortReuseDetector::indexOf(const Reuse& reuse) const {
    return reuse.index;
}

void PortReuseDetector::recordCollision(Reuse& reuse) {
    Finding finding;
    finding.kind = FindingKind::PortReuse;
    finding.severity = Severity::Error;
    finding.connection = reuse.connection;
    finding.tsNs = reuse.synTsNs;
    reuse.findingId = log().add(std::move(finding), this, indexOf(reuse));
    log().changed(reuse.findingId);
}

void PortReuseDetector::describe(uint32_t record, Finding& finding, Detail detail) const {
    if ((record & kGroupRecord) != 0) {
        describeGroup(groups_[record & ~kGroupRecord], finding, detail);
    } else {
        describeCollision(reuses_[record], finding);
    }
}

void PortReuseDetector::measure(uint32_t record, Finding& finding) const {
    if ((record & kGroupRecord) == 0) {  // a group's duration is set when it is made
        measureCollision(reuses_[record], finding);
    }
}

int64_t PortReuseDetector::delayNsOf(const Reuse& reuse) {
    return (reuse.establishedFrame != 0 ? reuse.establishedTsNs : reuse.lastHandshakeTsNs) - reuse.synTsNs;
}

void PortReuseDetector::measureCollision(const Reuse& reuse, Finding& finding) {
    finding.durationMs = toMs(delayNsOf(reuse));
    WaitTally waits;  // the new connection's handshake, held up by the collision
    waits.add(reuse.connection, reuse.synTsNs, reuse.synTsNs + delayNsOf(reuse));
    setImpact(finding, waits);
}

void PortReuseDetector::describeCollision(const Reuse& reuse, Finding& finding) const {
    const bool established = reuse.establishedFrame != 0;
    measureCollision(reuse, finding);
    finding.frames.clear();
    for (const uint32_t frame :
         {reuse.synFrame, reuse.challengeAckFrame, reuse.receiverRstFrame, reuse.senderRstFrame}) {
        if (frame != 0) {
            finding.frames.push_back(frame);
        }
    }
    finding.frames.insert(finding.frames.end(), reuse.synRetransmissionFrames.begin(),
                          reuse.synRetransmissionFrames.end());
    for (const uint32_t frame : {reuse.synAckFrame, reuse.establishedFrame}) {
        if (frame != 0) {
            finding.frames.push_back(frame);
        }
    }
    std::sort(finding.frames.begin(), finding.frames.end());
    // One span, the delayed handshake: the first SYN, the server's answer (the challenge ACK, or its
    // RST) and the packet that completed the handshake (or the last SYN sent when none did). The
    // sequence diagram draws it as a bracket beside the client, which waited.
    finding.spans.clear();
    const uint32_t answerFrame = reuse.challengeAckFrame != 0 ? reuse.challengeAckFrame : reuse.receiverRstFrame;
    const uint32_t lastSynFrame =
        reuse.synRetransmissionFrames.empty() ? reuse.synFrame : reuse.synRetransmissionFrames.back();
    const uint32_t endFrame = established ? reuse.establishedFrame : lastSynFrame;
    FindingSpan& span = finding.spans.emplace_back(FindingSpan{.startNs = reuse.synTsNs,
                                                               .endNs = reuse.synTsNs + delayNsOf(reuse),
                                                               .connection = reuse.connection,
                                                               .side = Side::Client,
                                                               .frames = {{FrameRole::FirstSyn, reuse.synFrame}}});
    if (answerFrame != 0) {
        span.frames.push_back(FrameRole::ServerAnswer, answerFrame);
    }
    if (endFrame != reuse.synFrame) {
        span.frames.push_back(FrameRole::HandshakeEnd, endFrame);
    }
    finding.totalSpans = 1;
    finding.evidence = describe(reuse);
    finding.evidence["outcome"] = portReuseOutcomeName(Outcome::Collision);
    finding.evidence["client"] = reuse.client.toString();
    finding.evidence["server"] = reuse.server.toString();
    finding.evidence["established"] = established;
    finding.evidence["delay_ms"] = finding.durationMs;
    finding.evidence["syn_again_after_ms"] = reuse.firstRetransmissionTsNs != kNoTime
                                                 ? nlohmann::json(toMs(reuse.firstRetransmissionTsNs - reuse.synTsNs))
                                                 : nlohmann::json();

    // What held the old connection, and how the SYN was answered.
    std::string held;
    if (reuse.timeWaitLive) {
        held = fmt::format("the {}'s TIME_WAIT of #{} (it closed first, {:.1f} ms before)", sideName(Side::Server),
                           reuse.earlier, toMs(reuse.sinceEarlierNs));
    } else if (reuse.earlierEnd == EarlierEnd::Open || reuse.earlierEnd == EarlierEnd::HalfClosed) {
        held = fmt::format("#{}, which was never seen to close", reuse.earlier);
    } else {
        held = fmt::format("the old state of #{} ({} {:.1f} ms before)", reuse.earlier,
                           earlierEndName(static_cast<int>(reuse.earlierEnd)), toMs(reuse.sinceEarlierNs));
    }
    std::string answer;
    if (reuse.challengeAckFrame != 0) {
        answer = "the server answered with a bare ACK for the old connection (challenge ACK)";
    } else if (reuse.receiverRstFrame != 0) {
        answer = "the server answered with a RST";
    } else {
        answer = "the server did not answer";
    }
    std::string retry;
    if (reuse.senderRstFrame != 0 && reuse.synRetransmissions > 0) {
        retry = ", the client reset it and sent the SYN again";
    } else if (reuse.senderRstFrame != 0) {
        retry = ", the client reset it";
    } else if (reuse.synRetransmissions > 0) {
        retry = ", the client sent the SYN again";
    }
    if (reuse.synRetransmissions > 1) {
        retry += fmt::format(" ({} times)", reuse.synRetransmissions);
    }
    const std::string cost =
        established
            ? fmt::format("the connection was established {:.1f} ms after the first SYN", finding.durationMs)
            : fmt::format("the connection was still not established {:.1f} ms after the first SYN", finding.durationMs);
    const std::string fix =
        reuse.timeWaitLive || reuse.hasHolder
            ? "don't bind fixed source ports (let the kernel pick one), keep TCP timestamps on so TIME_WAIT can "
              "accept a newer SYN, have the client close first (its own TIME_WAIT is reused safely with "
              "tcp_tw_reuse), and avoid SO_LINGER 0 tricks"
            : "close connections explicitly on both sides and don't bind fixed source ports (let the kernel pick "
              "one)";
    finding.summary = fmt::format(
        "{} -> {}: port reuse collision: the SYN reusing this 4-tuple ran into {}; {}{}; "
        "{}; fix: {}.",
        reuse.client.toString(), reuse.server.toString(), held, answer, retry, cost, fix);
}

PortReuseDetector::Reason PortReuseDetector::reasonOf(const Reuse& reuse) const {
    if (reuse.earlierEnd == EarlierEnd::Reset) {
        return Reason::Reset;
    }
    if (reuse.earlierEnd == EarlierEnd::Closed) {
        const auto timeWaitNs = static_cast<int64_t>(options().timeWaitSeconds * 1e9);
        if (reuse.timeWaitLive) {
            return Reason::ReceiverTimeWait;
        }
        if (reuse.sinceEarlierNs >= timeWaitNs) {
            return Reason::TimeWaitExpired;
        }
        return Reason::SenderTimeWait;  // the SYN's sender reused its own TIME_WAIT (tcp_tw_reuse)
    }
    return reuse.earlierEnd == EarlierEnd::HalfClosed ? Reason::HalfClosed : Reason::Open;
}

void PortReuseDetector::addToGroup(Reuse& reuse) {
    const GroupKey key{reuse.outcome, reuse.client.address, reuse.server};
    auto [slot, isNew] = groupIndex_.try_emplace(key, static_cast<uint32_t>(groups_.size()));
    if (isNew) {
        groups_.emplace_back().key = key;
        Finding finding;
        finding.kind = FindingKind::PortReuse;
        finding.severity = reuse.outcome == Outcome::AfterGone ? Severity::Info : Severity::Warning;
        finding.connection = reuse.connection;
        finding.tsNs = reuse.synTsNs;
        groups_.back().findingId = log().add(std::move(finding), this, kGroupRecord | slot->second);
    }
    Group& group = groups_[slot->second];
    ++group.reuses;
    group.minSinceNs = std::min(group.minSinceNs, reuse.sinceEarlierNs);
    group.maxSinceNs = std::max(group.maxSinceNs, reuse.sinceEarlierNs);
    group.timestampNewer += reuse.timestampNewer > 0 ? 1 : 0;
    group.isnNewer += reuse.isnNewer > 0 ? 1 : 0;
    reuse.reason = reasonOf(reuse);
    ++group.reasons[static_cast<size_t>(reuse.reason)];
    if (group.reuses <= kMaxListedReuses) {
        group.listed.push_back(indexOf(reuse));
    }
    log().changed(group.findingId);
}

void PortReuseDetector::describeGroup(const Group& group, Finding& finding, Detail detail) const {
    const bool withEvidence = detail == Detail::Full;
    const auto& [outcome, client, server] = group.key;
    const std::string from = client.toString();
    const std::string to = server.toString();
    nlohmann::json::array_t instances;
    instances.reserve(group.listed.size());
    finding.frames.clear();
    finding.spans.clear();
    finding.totalSpans = group.reuses - 1;  // all but the reuse of the finding's own connection
    finding.facts = AcceptedReuseFacts{group.reuses};
    for (const uint32_t index : group.listed) {
        const Reuse& reuse = reuses_[index];
        // Each later reuse is an instant, its SYN (one frame: the sequence diagram draws none); the
        // finding's own connection is the finding itself, at its time.
        if (reuse.connection != finding.connection) {
            finding.spans.push_back({.startNs = reuse.synTsNs,
                                     .endNs = reuse.synTsNs,
                                     .connection = reuse.connection,
                                     .frames = {{FrameRole::FirstSyn, reuse.synFrame}}});
        }
        if (withEvidence) {
            nlohmann::json& instance = instances.emplace_back(describe(reuse));
            instance.get_ref<nlohmann::json::object_t&>().emplace("reason",
                                                                  kReasonNames.at(static_cast<size_t>(reuse.reason)));
        }
        finding.frames.push_back(reuse.synFrame);
        if (reuse.synAckFrame != 0) {
            finding.frames.push_back(reuse.synAckFrame);
        }
    }
    nlohmann::json reasonCounts = nlohmann::json::object();  // by name, as the summary lists them
    for (size_t reason = 0; reason < kReasons; ++reason) {
        if (group.reasons.at(reason) > 0) {
            reasonCounts[std::string(kReasonNames.at(reason))] = group.reasons.at(reason);
        }
    }
    if (withEvidence) {
        nlohmann::json::object_t since;
        since.emplace("min", toMs(group.minSinceNs));
        since.emplace("max", toMs(group.maxSinceNs));
        nlohmann::json::object_t evidence;
        evidence.emplace("outcome", portReuseOutcomeName(outcome));
        evidence.emplace("client", from);
        evidence.emplace("server", to);
        evidence.emplace("instances", std::move(instances));
        evidence.emplace("reuses", group.reuses);
        evidence.emplace("reasons", reasonCounts);
        evidence.emplace("since_earlier_end_ms", std::move(since));
        evidence.emplace("instances_truncated", group.reuses > kMaxListedReuses);
        if (outcome == Outcome::IntoTimeWait) {
            evidence.emplace("timestamp_newer", group.timestampNewer);
            evidence.emplace("isn_newer", group.isnNewer);
        }
        finding.evidence = std::move(evidence);
    }
    const std::string count =
        group.reuses == 1 ? std::string("1 new connection") : fmt::format("{} new connections", group.reuses);
    const std::string range = group.minSinceNs == group.maxSinceNs
                                  ? fmt::format("{:.1f} ms", toMs(group.minSinceNs))
                                  : fmt::format("{:.1f} to {:.1f} ms", toMs(group.minSinceNs), toMs(group.maxSinceNs));
    switch (outcome) {
        case Outcome::IntoTimeWait: {
            const std::string why =
                group.timestampNewer > 0 ? "its timestamp was newer" : "its sequence number was newer";
            finding.summary = fmt::format(
                "{} -> {}: {} reused a 4-tuple the server still held in TIME_WAIT (it had closed first; its TIME_WAIT "
                "began {} before); "
                "the server accepted the SYN because {}, so no time was lost, but this is fragile: with timestamps off "
                "or a lower ISN the SYN collides and waits for a retransmission; fix: have the client close first or "
                "use keep-alive, let the kernel pick source ports from a wide ip_local_port_range, keep TCP timestamps "
                "on.",
                from, to, count, range, why);
            break;
        }
        case Outcome::NeverClosed:
            finding.summary = fmt::format(
                "{} -> {}: {} reused a 4-tuple whose earlier connection was never seen to close (no FIN or RST, last "
                "packet {} before): the capture missed its end, or one side dropped it silently (a restart, a NAT or "
                "firewall timeout) while the other may still hold it; fix: close connections explicitly and find why "
                "the earlier one was abandoned.",
                from, to, count, range);
            break;
        default: {
            std::string reasons;
            for (const auto& [reason, reasonCount] : reasonCounts.items()) {
                reasons += fmt::format("{}{} {}", reasons.empty() ? "" : ", ", reasonCount.get<uint32_t>(), reason);
            }
            finding.summary = fmt::format(
                "{} -> {}: {} reused a 4-tuple after the earlier connection was gone ({}; {} after its end); the "
                "server "
                "had no state left, so nothing was lost.",
                from, to, count, reasons, range);
            break;
        }
    }
}

void PortReuseDetector::onEnd(int64_t /*lastTsNs*/) {
    // SYNs that were never answered are judged on what the capture holds.
    for (Reuse& reuse : reuses_) {
        if (!reuse.decided) {
            decide(reuse);
        }
    }
    // The findings are described from reuses_ and groups_: the per-connection state goes before they are.
    states_.clear();
}

void PortReuseDetector::onRetire(const Connection& connection) {
    // A retired connection's tuple is forgotten: it never becomes an earlier generation.
    states_.release(connection.id);
}

}  // namespace tcpscope
