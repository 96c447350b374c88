#include "detect/zero_window_stall_detector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
    if (!own.closed && has(event.analysis, AnalysisFlag::ZeroWindow)) {
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
            totals.findingId = byClock ? log().addProvisional(newFinding(connection, receiver, state))
                                       : log().add(newFinding(connection, receiver, state));
        } else if (log().isProvisional(totals.findingId) && !byClock) {
            log().confirm(totals.findingId, newFinding(connection, receiver, state));
        }
        return totals;
    }
    state.totals = static_cast<uint32_t>(totals_.size());
    Finding finding = newFinding(connection, receiver, state);
    totals_.push_back(
        Totals{connection.id, receiver, byClock ? log().addProvisional(std::move(finding)) : log().add(std::move(finding))});
    return totals_.back();
}

Finding ZeroWindowStallDetector::newFinding(const ConnectionSnapshot& connection, Side receiver,
                                            const ReceiverState& state) const {
    Finding finding;
    finding.kind = "zero_window_stall";
    finding.severity = Severity::Warning;
    finding.connection = connection.id;
    finding.tsNs = state.closedTsNs;
    finding.evidence = {{"receiver", connection.endpoint(receiver).toString()},
                        {"sender", connection.endpoint(otherSide(receiver)).toString()},
                        {"receiver_side", sideName(receiver)},
                        {"stalls", 0},
                        {"closed_ms", 0.0},
                        {"longest_ms", 0.0},
                        {"probes", 0},
                        {"instances", nlohmann::json::array()}};
    return finding;
}

void ZeroWindowStallDetector::endPeriod(const ConnectionSnapshot& connection, Side receiver, ReceiverState& state,
                                        uint32_t endFrame, int64_t endTsNs, const char* endedBy) {
    state.closed = false;
    --closedSides_;
    const int64_t closedNs = endTsNs - state.closedTsNs;
    if (closedNs < static_cast<int64_t>(options().zeroWindowStallMinMs * kNsPerMs)) {
        if (state.totals != kNoTotals) {
            const Totals& totals = totals_[state.totals];
            Finding& finding = log().edit(totals.findingId);
            finding.evidence.erase("ongoing");
            if (finding.provisional) {
                log().withdraw(totals.findingId);  // the clock ran ahead of the packets still on their way
            } else if (finding.ongoing) {
                finding.ongoing = false;  // only the clock showed this period (a file never gets here)
                refreshSummary(connection, totals, state, 0);
                log().changed(totals.findingId);
            }
        }
        return;
    }
    Totals& totals = ensureFinding(connection, receiver, state);
    ++totals.stalls;
    totals.closedNs += closedNs;
    totals.longestNs = std::max(totals.longestNs, closedNs);
    totals.probes += state.probes;
    Finding& finding = log().edit(totals.findingId);
    finding.evidence.erase("ongoing");
    finding.ongoing = false;
    if (totals.stalls <= kMaxListedStalls) {
        nlohmann::json frames = nlohmann::json::array({state.closedFrame});
        finding.frames.push_back(state.closedFrame);
        if (state.probes > 0) {
            frames.push_back(state.firstProbeFrame);
            finding.frames.push_back(state.firstProbeFrame);
        }
        if (endFrame != 0) {
            frames.push_back(endFrame);
            finding.frames.push_back(endFrame);
        }
        finding.evidence["instances"].push_back({{"frames", frames},
                                                 {"ts_offset_ms", toMs(state.closedTsNs - finding.tsNs)},
                                                 {"closed_ms", toMs(closedNs)},
                                                 {"probes", state.probes},
                                                 {"ended_by", endedBy}});
    }
    refreshSummary(connection, totals, state, 0);
    log().changed(totals.findingId);
}

// A closed window that has already lasted longer than the threshold is a stall even before it
// opens: show it at once, so a live capture does not wait for the end of the period.
void ZeroWindowStallDetector::showOngoing(const ConnectionSnapshot& connection, Side receiver, ReceiverState& state,
                                          int64_t nowTsNs, bool byClock) {
    const int64_t closedNs = nowTsNs - state.closedTsNs;
    if (closedNs < static_cast<int64_t>(options().zeroWindowStallMinMs * kNsPerMs)) {
        return;
    }
    const Totals& totals = ensureFinding(connection, receiver, state, byClock);
    // Live, the clock may have shown more already than a packet that waited in the queue says: the
    // time shown never goes back (the clock is the packet's time when a file is read). The clock as
    // the engine's clockNs() was at this segment: the engine may be tracking later ones meanwhile.
    const int64_t clockNs = std::max(clockNs_, nowTsNs);
    const int64_t shownNs = std::max(closedNs, clockNs - state.closedTsNs);
    Finding& finding = log().edit(totals.findingId);
    finding.ongoing = true;
    finding.evidence["ongoing"] = {
        {"since_frame", state.closedFrame}, {"closed_ms", toMs(shownNs)}, {"probes", state.probes}};
    refreshSummary(connection, totals, state, shownNs);
    log().changed(totals.findingId);
}

void ZeroWindowStallDetector::refreshSummary(const ConnectionSnapshot& connection, const Totals& totals,
                                             const ReceiverState& state, int64_t ongoingNs) {
    Finding& finding = log().edit(totals.findingId);
    const int64_t totalNs = totals.closedNs + ongoingNs;
    const uint32_t periods = totals.stalls + (ongoingNs > 0 ? 1 : 0);
    const uint32_t probes = totals.probes + (ongoingNs > 0 ? state.probes : 0);
    const int64_t longestNs = std::max(totals.longestNs, ongoingNs);
    const int64_t lifeNs = lifeOf(connection);
    const double share = std::min(1.0, static_cast<double>(totalNs) / static_cast<double>(lifeNs));
    finding.durationMs = toMs(totalNs);
    finding.evidence["stalls"] = totals.stalls;
    finding.evidence["closed_ms"] = finding.durationMs;
    finding.evidence["longest_ms"] = toMs(longestNs);
    finding.evidence["probes"] = probes;
    finding.evidence["share_of_connection"] = std::round(share * 1000) / 1000;
    finding.evidence["instances_truncated"] = totals.stalls > kMaxListedStalls;
    const std::string what = periods == 1 ? std::string("once") : fmt::format("{} times", periods);
    finding.summary = fmt::format(
        "{} closed its receive window {} for {:.1f} ms in all (longest {:.1f} ms, {:.0f}% of the connection's "
        "life, {} zero-window probes), so {} could not send: the receiving application is not reading from the "
        "socket fast enough, or its receive buffer is too small; fix: read sooner and in larger chunks (a "
        "dedicated reader, non-blocking I/O), or raise SO_RCVBUF / net.ipv4.tcp_rmem.",
        connection.endpoint(totals.receiver).toString(), what, finding.durationMs, toMs(longestNs), share * 100, probes,
        connection.endpoint(otherSide(totals.receiver)).toString());
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
    // The connections' lives are final now: update the shares.
    for (const Totals& totals : totals_) {
        if (log().isWithdrawn(totals.findingId)) {  // not all(): see ensureFinding
            continue;
        }
        const ReceiverState& state = sides_[sidesIndex_.at(totals.connection)].of(totals.receiver);
        refreshSummary(ConnectionSnapshot::of(connections[totals.connection]), totals, state, 0);
        log().changed(totals.findingId);
    }
}

}  // namespace tcpscope
