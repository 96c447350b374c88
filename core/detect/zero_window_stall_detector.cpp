#include "detect/zero_window_stall_detector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace tcpscope {

namespace {

constexpr int64_t kNsPerMs = 1'000'000;
constexpr size_t kMaxListedStalls = 1000;  // evidence keeps the first ones; counts and totals keep all

double toMs(int64_t ns) {
    return static_cast<double>(ns) / kNsPerMs;
}

}  // namespace

void ZeroWindowStallDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    const ConnectionSnapshot& connection = event.connection;
    const Side sender = event.sender;
    // A connection gets state at its first zero window: before that, neither side is closed and
    // nothing below would change (most connections never get here: one bit tells, no hash lookup).
    const bool hasSides = connection.id < withSides_.size() && withSides_[connection.id];
    if (!hasSides && ((segment.flags & (tcpflag::kRst | tcpflag::kSyn)) != 0 ||
                      !has(event.analysis, AnalysisFlag::ZeroWindow))) {
        return;
    }
    uint32_t index = 0;
    if (hasSides) {
        index = sidesIndex_.at(connection.id);
    } else {
        if (connection.id >= withSides_.size()) {
            withSides_.resize(std::max<size_t>(connection.id + 1, withSides_.size() * 2));
        }
        withSides_[connection.id] = true;
        index = static_cast<uint32_t>(sides_.size());
        sidesIndex_.emplace(connection.id, index);
        sides_.push_back(Sides{connection.id, {}});
    }
    Sides& sides = sides_[index];
    ReceiverState& own = sides.of(sender);
    ReceiverState& peer = sides.of(otherSide(sender));

    // As the sender facing a closed window.
    if (peer.closed && (segment.flags & tcpflag::kRst) == 0) {
        // Linux probes a closed window with an empty segment one byte back, which Wireshark
        // calls a keep-alive; other stacks send one byte of new data (a zero-window probe).
        if (has(event.analysis, AnalysisFlag::ZeroWindowProbe) || has(event.analysis, AnalysisFlag::KeepAlive)) {
            if (peer.probes++ == 0) {
                peer.firstProbeFrame = event.frame;
            }
        }
        showOngoing(connection, otherSide(sender), peer, event.tsNs);
    }

    // A reset from either side ends the connection, and with it a closed period.
    if ((segment.flags & tcpflag::kRst) != 0) {
        if (peer.closed) {
            endPeriod(connection, otherSide(sender), peer, event.frame, event.tsNs, "reset");
        }
        if (own.closed) {
            endPeriod(connection, sender, own, event.frame, event.tsNs, "reset");
        }
        return;
    }

    // As the receiver that advertises the window.
    if ((segment.flags & tcpflag::kSyn) != 0) {
        return;
    }
    // A zero window after the peer's FIN (the ACK of that FIN), or on the receiver's own FIN, holds
    // nothing back: the peer has no more data to send, or the receiver is closing.
    const bool peerDone = connection.from(otherSide(sender)).sawFin || (segment.flags & tcpflag::kFin) != 0;
    if (!own.closed && has(event.analysis, AnalysisFlag::ZeroWindow) && !peerDone) {
        own.closed = true;
        ++closedSides_;
        own.closedFrame = event.frame;
        own.closedTsNs = event.tsNs;
        own.probes = 0;
        own.firstProbeFrame = 0;
    } else if (own.closed && segment.window != 0) {
        endPeriod(connection, sender, own, event.frame, event.tsNs, "window_update");
    }
}

ZeroWindowStallDetector::Totals& ZeroWindowStallDetector::ensureFinding(const ConnectionSnapshot& connection,
                                                                        Side receiver, ReceiverState& state,
                                                                        bool byClock) {
    if (state.totals != kNoTotals) {
        Totals& totals = totals_[state.totals];
        // Not all(): it would first have the log describe every finding changed since the last read.
        if (log().isWithdrawn(totals.findingId)) {
            totals.findingId = byClock ? log().addProvisional(newFinding(totals, state))
                                       : log().add(newFinding(totals, state), this, state.totals);
        } else if (log().isProvisional(totals.findingId) && !byClock) {
            log().confirm(totals.findingId, newFinding(totals, state), this, state.totals);
        }
        return totals;
    }
    // The totals exist before the log is told: it may describe the finding at once.
    state.totals = static_cast<uint32_t>(totals_.size());
    Totals& totals = totals_.emplace_back();
    totals.connection = connection.id;
    totals.receiver = receiver;
    totals.receiverEndpoint = connection.endpoint(receiver);
    totals.senderEndpoint = connection.endpoint(otherSide(receiver));
    Finding finding = newFinding(totals, state);
    totals.findingId =
        byClock ? log().addProvisional(std::move(finding)) : log().add(std::move(finding), this, state.totals);
    return totals;
}

Finding ZeroWindowStallDetector::newFinding(Totals& totals, const ReceiverState& state) {
    Finding finding;
    finding.kind = FindingKind::ZeroWindowStall;
    finding.severity = Severity::Warning;
    finding.connection = totals.connection;
    finding.tsNs = state.closedTsNs;
    totals.firstTsNs = state.closedTsNs;
    return finding;
}

void ZeroWindowStallDetector::endPeriod(const ConnectionSnapshot& connection, Side receiver, ReceiverState& state,
                                        uint32_t endFrame, int64_t endTsNs, const char* endedBy) {
    state.closed = false;
    --closedSides_;
    const int64_t closedNs = endTsNs - state.closedTsNs;
    if (closedNs < static_cast<int64_t>(options().zeroWindowStallMinMs * kNsPerMs)) {
        if (state.totals != kNoTotals) {
            Totals& totals = totals_[state.totals];
            const bool wasOngoing = totals.ongoing;
            totals.ongoing = false;
            totals.ongoingNs = 0;
            if (log().isProvisional(totals.findingId)) {
                log().withdraw(totals.findingId);  // the clock ran ahead of the packets still on their way
            } else if (wasOngoing) {
                totals.lifeNs = lifeOf(connection);  // only the clock showed this period (a file never gets here)
                changed(totals);
            }
        }
        return;
    }
    Totals& totals = ensureFinding(connection, receiver, state);
    ++totals.stalls;
    totals.closedNs += closedNs;
    totals.longestNs = std::max(totals.longestNs, closedNs);
    totals.waits.add(connection.id, state.closedTsNs, endTsNs);
    totals.probes += state.probes;
    totals.ongoing = false;
    totals.ongoingNs = 0;
    totals.lifeNs = lifeOf(connection);
    if (totals.stalls <= kMaxListedStalls) {
        totals.listed.push_back(
            Period{state.closedTsNs, closedNs, state.closedFrame, state.firstProbeFrame, endFrame, state.probes, endedBy});
    }
    changed(totals);
}

// A closed window that has already lasted longer than the threshold is a stall even before it
// opens: show it at once, so a live capture does not wait for the end of the period.
void ZeroWindowStallDetector::showOngoing(const ConnectionSnapshot& connection, Side receiver, ReceiverState& state,
                                          int64_t nowTsNs, bool byClock) {
    const int64_t closedNs = nowTsNs - state.closedTsNs;
    if (closedNs < static_cast<int64_t>(options().zeroWindowStallMinMs * kNsPerMs)) {
        return;
    }
    Totals& totals = ensureFinding(connection, receiver, state, byClock);
    // Live, the clock may have shown more already than a packet that waited in the queue says: the
    // time shown never goes back (the clock is the packet's time when a file is read). The clock as
    // the engine's clockNs() was at this segment: the engine may be tracking later ones meanwhile.
    const int64_t clockNs = std::max(clockNs_, nowTsNs);
    totals.ongoing = true;
    totals.ongoingNs = std::max(closedNs, clockNs - state.closedTsNs);
    totals.ongoingFrame = state.closedFrame;
    totals.ongoingSinceNs = state.closedTsNs;
    totals.ongoingProbes = state.probes;
    totals.lifeNs = lifeOf(connection);
    changed(totals);
}

void ZeroWindowStallDetector::changed(const Totals& totals) {
    if (log().isProvisional(totals.findingId)) {  // no author until a packet confirms it
        write(totals, log().edit(totals.findingId), Detail::Full);
    }
    log().changed(totals.findingId);
}

void ZeroWindowStallDetector::describe(uint32_t record, Finding& finding, Detail detail) const {
    write(totals_[record], finding, detail);
}

void ZeroWindowStallDetector::measure(uint32_t record, Finding& finding) const {
    measure(totals_[record], finding);
}

void ZeroWindowStallDetector::measure(const Totals& totals, Finding& finding) {
    finding.durationMs = toMs(totals.closedNs + totals.ongoingNs);
    finding.ongoing = totals.ongoing;
    setImpact(finding, totals.waits, ongoingWait(totals.ongoingSinceNs, totals.ongoingNs));
}

nlohmann::json ZeroWindowStallDetector::evidence(const Totals& totals, const Finding& finding) {
    const uint32_t probes = totals.probes + (totals.ongoingNs > 0 ? totals.ongoingProbes : 0);
    const int64_t longestNs = std::max(totals.longestNs, totals.ongoingNs);
    const int64_t totalNs = totals.closedNs + totals.ongoingNs;
    const double share = std::min(1.0, static_cast<double>(totalNs) / static_cast<double>(totals.lifeNs));
    nlohmann::json::array_t instances;
    instances.reserve(totals.listed.size());
    for (const Period& period : totals.listed) {
        nlohmann::json::array_t frames{period.closedFrame};
        if (period.probes > 0) {
            frames.emplace_back(period.firstProbeFrame);
        }
        if (period.endFrame != 0) {
            frames.emplace_back(period.endFrame);
        }
        // Member by member: an initializer list would copy every value once more.
        nlohmann::json::object_t instance;
        instance.emplace("frames", std::move(frames));
        instance.emplace("ts_offset_ms", toMs(period.closedTsNs - totals.firstTsNs));
        instance.emplace("closed_ms", toMs(period.closedNs));
        instance.emplace("probes", period.probes);
        instance.emplace("ended_by", period.endedBy);
        instances.push_back(std::move(instance));
    }
    nlohmann::json::object_t evidence;
    evidence.emplace("receiver", totals.receiverEndpoint.toString());
    evidence.emplace("sender", totals.senderEndpoint.toString());
    evidence.emplace("receiver_side", sideName(totals.receiver));
    evidence.emplace("instances", std::move(instances));
    evidence.emplace("stalls", totals.stalls);
    evidence.emplace("closed_ms", finding.durationMs);
    evidence.emplace("longest_ms", toMs(longestNs));
    evidence.emplace("probes", probes);
    evidence.emplace("share_of_connection", std::round(share * 1000) / 1000);
    evidence.emplace("instances_truncated", totals.stalls > kMaxListedStalls);
    if (totals.ongoing) {
        evidence.emplace("ongoing", nlohmann::json{{"since_frame", totals.ongoingFrame},
                                                   {"closed_ms", toMs(totals.ongoingNs)},
                                                   {"probes", totals.ongoingProbes}});
    }
    return evidence;
}

void ZeroWindowStallDetector::write(const Totals& totals, Finding& finding, Detail detail) {
    measure(totals, finding);
    const int64_t totalNs = totals.closedNs + totals.ongoingNs;
    const uint32_t periods = totals.stalls + (totals.ongoingNs > 0 ? 1 : 0);
    const uint32_t probes = totals.probes + (totals.ongoingNs > 0 ? totals.ongoingProbes : 0);
    const int64_t longestNs = std::max(totals.longestNs, totals.ongoingNs);
    const double share = std::min(1.0, static_cast<double>(totalNs) / static_cast<double>(totals.lifeNs));
    finding.frames.clear();
    finding.spans.clear();
    finding.spans.reserve(totals.listed.size());
    finding.totalSpans = totals.stalls;
    finding.waitingSide = otherSide(totals.receiver);
    for (const Period& period : totals.listed) {
        FindingSpan& span = finding.spans.emplace_back();
        span.startNs = period.closedTsNs;
        span.endNs = period.closedTsNs + period.closedNs;
        span.connection = totals.connection;
        span.side = otherSide(totals.receiver);
        span.frames.push_back(FrameRole::WindowClosed, period.closedFrame);
        if (period.probes > 0) {
            span.frames.push_back(FrameRole::FirstProbe, period.firstProbeFrame);
        }
        if (period.endFrame != 0) {
            span.frames.push_back(FrameRole::WindowEnd, period.endFrame);
        }
        finding.frames.insert(finding.frames.end(), span.frames.begin(), span.frames.end());
    }
    if (detail == Detail::Full) {
        finding.evidence = evidence(totals, finding);
    }
    const std::string receiver = totals.receiverEndpoint.toString();
    const std::string sender = totals.senderEndpoint.toString();
    const std::string what = periods == 1 ? std::string("once") : fmt::format("{} times", periods);
    finding.summary = fmt::format(
        "{} closed its receive window {} for {:.1f} ms in all (longest {:.1f} ms, {:.0f}% of the connection's "
        "life, {} zero-window probes), so {} could not send: the receiving application is not reading from the "
        "socket fast enough, or its receive buffer is too small; fix: read sooner and in larger chunks (a "
        "dedicated reader, non-blocking I/O), or raise SO_RCVBUF / net.ipv4.tcp_rmem.",
        receiver, what, finding.durationMs, toMs(longestNs), share * 100, probes, sender);
}

// Live: the windows still closed have been closed until now, though no packet says so yet.
void ZeroWindowStallDetector::onClock(int64_t nowNs) {
    clockNs_ = nowNs;
    if (closedSides_ == 0) {
        return;
    }
    const auto& connections = engine().connections();
    for (Sides& sides : sides_) {
        for (const Side side : {Side::Client, Side::Server}) {
            ReceiverState& state = sides.of(side);
            if (state.closed) {
                showOngoing(ConnectionSnapshot::of(connections[sides.connection]), side, state, nowNs, true);
            }
        }
    }
}

void ZeroWindowStallDetector::onEnd(int64_t lastTsNs) {
    const auto& connections = engine().connections();
    // In connection order, client side first, so findings made here get their ids in that order.
    std::vector<uint32_t> byConnection(sides_.size());
    for (uint32_t index = 0; index < sides_.size(); ++index) {
        byConnection[index] = index;
    }
    std::sort(byConnection.begin(), byConnection.end(),
              [this](uint32_t a, uint32_t b) { return sides_[a].connection < sides_[b].connection; });
    for (const uint32_t index : byConnection) {
        Sides& sides = sides_[index];
        for (const Side side : {Side::Client, Side::Server}) {
            ReceiverState& state = sides.of(side);
            if (state.closed) {
                // Still closed when the capture ended: the time until the connection's last segment
                // was lost (the sender's probes show it was still waiting).
                const ConnectionSnapshot connection = ConnectionSnapshot::of(connections[sides.connection]);
                endPeriod(connection, side, state, 0, std::min(lastTsNs, connection.lastTsNs), "capture_end");
            }
        }
    }
    // The connections' lives are final now: update the shares. The findings are written from the
    // totals alone: the per-connection state goes before they are.
    for (Totals& totals : totals_) {
        if (log().isWithdrawn(totals.findingId)) {  // not all(): see ensureFinding
            continue;
        }
        totals.lifeNs = lifeOf(connections[totals.connection]);
        changed(totals);
    }
    sidesIndex_ = absl::flat_hash_map<uint32_t, uint32_t>{};
    withSides_ = std::vector<bool>{};  // `= {}` would keep its memory (initializer-list assignment)
    sides_ = std::vector<Sides>{};
}

}  // namespace tcpscope
