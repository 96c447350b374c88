#include "present/sequence_diagram.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "decode/decoded_packet.hpp"
#include "present/value_format.hpp"

namespace tcpscope {

namespace {

const Connection& connectionAt(const CaptureAnalysis& analysis, uint32_t id) {
    if (analysis.engine == nullptr) {
        throw std::invalid_argument("the analysis has no packet index");
    }
    const ConnectionStore& connections = analysis.engine->connections();
    if (id >= connections.size()) {
        throw std::out_of_range(fmt::format("no connection {} (the capture has {})", id, connections.size()));
    }
    return connections[id];
}

double msBetween(int64_t startNs, int64_t endNs) {
    return static_cast<double>(endNs - startNs) / 1e6;
}

// One line on what the system call trace proves about a Nagle stall, or "" without a trace.
std::string straceProof(const StraceVerdict& verdict) {
    if (verdict.verdict == StraceVerdictKind::NoTrace) {
        return {};
    }
    const auto callText = [](const TracedCall& call) { return fmt::format("{}({})", call.name, call.bytes); };
    const std::string heldWrite = callText(verdict.heldWrite);
    std::string calls = verdict.firstWrite ? callText(*verdict.firstWrite) + ", " + heldWrite : heldWrite;
    if (!verdict.nextCall.empty()) {
        calls += ", " + verdict.nextCall;
    }
    const std::string nodelay = verdict.nodelaySet ? "TCP_NODELAY was set" : "TCP_NODELAY never set";
    if (verdict.verdict == StraceVerdictKind::Confirmed) {
        return fmt::format("strace confirms: {}; the kernel held the bytes {:.1f} ms; {}", calls, verdict.kernelHoldMs,
                           nodelay);
    }
    return fmt::format("strace refutes it: the application wrote the bytes late ({}); {}", calls, nodelay);
}

}  // namespace

SequenceDiagram SequenceDiagram::ofConnection(const CaptureAnalysis& analysis, uint32_t connection) {
    const Connection& flow = connectionAt(analysis, connection);
    return assemble(analysis.engine->packets(), {flow}, analysis.findings, analysis.enrichments,
                    &analysis.engine->connections());
}

SequenceDiagram SequenceDiagram::ofProxy(const CaptureAnalysis& analysis, uint32_t clientSide, uint32_t serverSide) {
    const Connection& front = connectionAt(analysis, clientSide);
    const Connection& back = connectionAt(analysis, serverSide);
    if (clientSide == serverSide) {
        throw std::invalid_argument("a proxy diagram needs two different connections");
    }
    return assemble(analysis.engine->packets(), {front, back}, analysis.findings, analysis.enrichments,
                    &analysis.engine->connections());
}

SequenceDiagram SequenceDiagram::ofConnection(const PacketIndex& packets, const Connection& connection,
                                              const FindingList& findings, const FindingEnrichments& enrichments,
                                              const ConnectionStore* store) {
    return assemble(packets, {connection}, findings, enrichments, store);
}

SequenceDiagram SequenceDiagram::ofProxy(const PacketIndex& packets, const Connection& clientSide,
                                         const Connection& serverSide, const FindingList& findings,
                                         const FindingEnrichments& enrichments, const ConnectionStore* store) {
    if (clientSide.id == serverSide.id) {
        throw std::invalid_argument("a proxy diagram needs two different connections");
    }
    return assemble(packets, {clientSide, serverSide}, findings, enrichments, store);
}

SequenceDiagram SequenceDiagram::assemble(const PacketIndex& packets, std::vector<Connection> flows,
                                          const FindingList& findings, const FindingEnrichments& enrichments,
                                          const ConnectionStore* store) {
    SequenceDiagram diagram;
    diagram.packets_ = &packets;
    for (const Connection& flow : flows) {
        diagram.connections_.push_back(flow.id);
        std::optional<Side> earlierCloser;
        if (store != nullptr && flow.reusedFrom != kNoConnection && flow.reusedFrom < store->size() &&
            store->holds(flow.reusedFrom)) {
            const Connection& earlier = (*store)[flow.reusedFrom];
            if (earlier.hasActiveCloser) {
                earlierCloser = earlier.activeCloser;
            }
        }
        diagram.earlierCloser_.push_back(earlierCloser);
    }
    diagram.flows_ = std::move(flows);
    const Connection& front = diagram.flows_.front();
    if (diagram.flows_.size() == 2) {
        const Connection& back = diagram.flows_.back();
        diagram.participants_ = {
            {"client", {front.client}}, {"proxy", {front.server, back.client}}, {"server", {back.server}}};
    } else {
        diagram.participants_ = {{"client", {front.client}}, {"server", {front.server}}};
    }
    diagram.collectArrows();
    diagram.collectStalls(findings, enrichments);
    return diagram;
}

const Connection& SequenceDiagram::flowOf(uint32_t id) const {
    return flows_[static_cast<size_t>(std::find(connections_.begin(), connections_.end(), id) - connections_.begin())];
}

void SequenceDiagram::collectArrows() {
    const PacketIndex& packets = *packets_;
    uint32_t firstFrame = UINT32_MAX;
    uint32_t lastFrame = 0;
    for (const Connection& flow : flows_) {
        firstFrame = std::min(firstFrame, flow.firstFrame);
        lastFrame = std::max(lastFrame, flow.lastFrame);
    }
    // Only the span of the connections' lives is read, not the whole index.
    for (size_t position = packets.firstAtOrAfterFrame(firstFrame); position < packets.size(); ++position) {
        const uint32_t connection = packets.connection(position);
        const auto leg = std::find(connections_.begin(), connections_.end(), connection);
        if (leg == connections_.end()) {
            continue;
        }
        const IndexedPacket packet = packets.at(position);
        if (packet.frame > lastFrame) {
            break;
        }
        SequenceArrow arrow;
        arrow.packet = position;
        arrow.tsNs = packet.tsNs;
        arrow.frame = packet.frame;
        arrow.leg = static_cast<uint8_t>(leg - connections_.begin());
        // Leg 0 runs between lifelines 0 and 1, leg 1 (a proxy's server side) between 1 and 2.
        const auto clientLifeline = arrow.leg;
        const auto serverLifeline = static_cast<uint8_t>(arrow.leg + 1);
        arrow.from = packet.fromServer ? serverLifeline : clientLifeline;
        arrow.to = packet.fromServer ? clientLifeline : serverLifeline;
        arrows_.push_back(arrow);
    }
}

void SequenceDiagram::collectStalls(const FindingList& findings, const FindingEnrichments& enrichments) {
    for (const Finding& finding : findings) {
        const auto leg = std::find(connections_.begin(), connections_.end(), finding.connection);
        if (leg == connections_.end()) {
            continue;
        }
        const auto legIndex = static_cast<uint8_t>(leg - connections_.begin());
        for (size_t index = 0; index < finding.spans.size(); ++index) {
            const FindingSpan& span = finding.spans[index];
            // A bracket needs the arrow that began the wait and the one that ended it.
            if (span.frames.size() < 2) {
                continue;
            }
            SequenceStall stall;
            stall.kind = finding.kind;
            stall.findingId = finding.id;
            stall.lifeline = static_cast<uint8_t>(legIndex + (span.side == Side::Server ? 1 : 0));
            stall.peer = static_cast<uint8_t>(legIndex + (span.side == Side::Server ? 0 : 1));
            stall.startArrow = arrowOfFrame(span.frames.front());
            stall.endArrow = arrowOfFrame(span.frames.back());
            if (stall.startArrow == kNoArrow || stall.endArrow == kNoArrow) {
                continue;
            }
            stall.startTsNs = arrows_[stall.startArrow].tsNs;
            stall.endTsNs = arrows_[stall.endArrow].tsNs;
            const double spanMs = static_cast<double>(stall.endTsNs - stall.startTsNs) / 1e6;
            const auto untold = [&] { return fmt::format("{} for {:.1f} ms", findingKindName(finding.kind), spanMs); };
            switch (finding.kind) {
                case FindingKind::DelayedAckStall: {
                    const std::optional<uint32_t> lateAck = span.frames.of(FrameRole::LateAck);
                    if (!lateAck || !span.frames.of(FrameRole::HeldSegment)) {
                        stall.text = untold();
                        break;
                    }
                    stall.causeArrow = arrowOfFrame(*lateAck);
                    const double holdMs = msBetween(span.startNs, span.endNs);
                    const double ackDelayMs = msBetween(span.startNs, span.releaseTsNs);
                    stall.text =
                        fmt::format("{} bytes held by Nagle for {:.1f} ms until the delayed ACK", span.bytes, holdMs);
                    stall.explanation = fmt::format(
                        "Why: Nagle's algorithm holds a small segment while earlier data is unacknowledged, and the "
                        "receiver delayed its ACK of the {} bytes before. Fix: TCP_NODELAY on the sender.",
                        span.earlierBytes);
                    stall.causeText = fmt::format("delayed ACK ({:.1f} ms)", ackDelayMs);
                    stall.endText = fmt::format("held {:.1f} ms", holdMs);
                    if (const std::vector<StraceVerdict>& verdicts = enrichments.of(finding.id).straceVerdicts;
                        index < verdicts.size()) {
                        stall.proof = straceProof(verdicts[index]);
                    }
                    break;
                }
                case FindingKind::RetransmissionStall: {
                    const double gapMs = msBetween(span.startNs, span.endNs);
                    stall.text = fmt::format("{} bytes resent after {:.1f} ms without an ACK", span.bytes, gapMs);
                    stall.endText = fmt::format("resent after {:.1f} ms", gapMs);
                    stall.explanation = span.spurious
                                            ? "the retransmission timer fired although the data had arrived "
                                              "(a spurious retransmission)"
                                            : "the segment or its ACK was lost, and the sender waited for its "
                                              "retransmission timer";
                    break;
                }
                case FindingKind::PathMtu: {
                    // One span per episode: from the refused data's transmission to its first smaller resend.
                    const double gapMs = msBetween(span.startNs, span.endNs);
                    stall.text =
                        fmt::format("{} bytes refused as too big, resent smaller after {:.1f} ms", span.bytes, gapMs);
                    stall.endText = fmt::format("resent smaller after {:.1f} ms", gapMs);
                    stall.explanation =
                        finding.nextHopMtu
                            ? fmt::format(
                                  "a router's next hop takes packets of {} bytes at most (ICMP \"fragmentation "
                                  "needed\"): path-MTU discovery, not a loss",
                                  *finding.nextHopMtu)
                            : std::string(
                                  "a router refused the packets as too big (ICMP \"fragmentation needed\"): "
                                  "path-MTU discovery, not a loss");
                    break;
                }
                case FindingKind::ZeroWindowStall: {
                    const double closedMs = msBetween(span.startNs, span.endNs);
                    stall.causeArrow = stall.endArrow;
                    stall.text = fmt::format("sender blocked for {:.1f} ms by a zero window", closedMs);
                    stall.explanation =
                        "the receiver's buffer was full (it announced a window of 0 bytes), so the "
                        "sender could not send until it opened again";
                    stall.causeText = "the window opens";
                    break;
                }
                case FindingKind::PortReuse: describeCollision(stall, span, legIndex); break;
                // Spans these kinds list (a pause, a delayed handshake) are drawn with their kind's name.
                case FindingKind::SynBacklogOverflow:
                case FindingKind::TimeWaitChurn:
                case FindingKind::PortExhaustion:
                case FindingKind::SynUnanswered:
                case FindingKind::SynFlood:
                case FindingKind::PortScan:
                case FindingKind::CaptureQuality: stall.text = untold(); break;
            }
            stalls_.push_back(std::move(stall));
        }
    }
    std::stable_sort(stalls_.begin(), stalls_.end(),
                     [](const SequenceStall& a, const SequenceStall& b) { return a.startArrow < b.startArrow; });
    std::sort(collisionArrows_.begin(), collisionArrows_.end(),
              [](const CollisionArrow& a, const CollisionArrow& b) { return a.arrow < b.arrow; });
}

void SequenceDiagram::describeCollision(SequenceStall& stall, const FindingSpan& span, uint8_t leg) {
    const Connection& flow = flows_[leg];
    const uint32_t earlier = flow.reusedFrom;
    stall.earlierConnection = earlier;
    const std::string earlierName = earlier != kNoConnection ? fmt::format("#{}", earlier) : "an earlier connection";
    const uint8_t clientLifeline = leg;
    // The packets between the first SYN and the end of the wait, named by what they are.
    // The server's answer is marked when a later packet ended the wait (it is otherwise the bracket's end).
    size_t answerArrow = kNoArrow;
    const std::optional<uint32_t> answer = span.frames.of(FrameRole::ServerAnswer);
    if (answer && span.frames.of(FrameRole::HandshakeEnd)) {
        answerArrow = arrowOfFrame(*answer);
    }
    bool serverReset = false;
    bool clientReset = false;
    bool synAgain = false;
    for (size_t arrow = stall.startArrow; arrow <= stall.endArrow && arrow < arrows_.size(); ++arrow) {
        if (arrows_[arrow].leg != leg) {
            continue;
        }
        const IndexedPacket packet = packetOf(arrow);
        const bool fromClient = arrows_[arrow].from == clientLifeline;
        const bool syn = (packet.tcpFlags & tcpflag::kSyn) != 0 && (packet.tcpFlags & tcpflag::kAck) == 0;
        const bool rst = (packet.tcpFlags & tcpflag::kRst) != 0;
        std::optional<CollisionRole> role;
        if (arrow == stall.startArrow) {
            role = CollisionRole::ReusingSyn;
        } else if (arrow == answerArrow) {
            role = rst ? CollisionRole::ServerRst : CollisionRole::ChallengeAck;
            serverReset = rst;
        } else if (fromClient && rst) {
            role = CollisionRole::OldStateRst;
            clientReset = true;
        } else if (fromClient && syn) {
            role = CollisionRole::SynAgain;
            synAgain = true;
        }
        if (role) {
            collisionArrows_.push_back({arrow, *role, earlier});
        }
    }
    // The server answering for the old connection that it closed first: its TIME_WAIT.
    const std::optional<Side> closer = earlierCloser_[leg];
    std::string held;
    if (answerArrow != kNoArrow && closer == Side::Server) {
        held = fmt::format("the server's TIME_WAIT of {}", earlierName);
    } else if (closer == Side::Client) {
        held = fmt::format("the client's TIME_WAIT of {}", earlierName);
    } else {
        held = fmt::format("the server's old state of {}", earlierName);
    }
    const double waitMs = msBetween(span.startNs, span.endNs);
    stall.text = fmt::format("+{:.1f} ms: SYN into {}", waitMs, held);
    if (earlier != kNoConnection) {
        stall.text += fmt::format(", closed {:.1f} ms before", static_cast<double>(flow.reuseGapNs) / 1e6);
    }
    std::string story = earlier != kNoConnection
                            ? fmt::format("{} closed {:.1f} ms before this SYN on the same 4-tuple", earlierName,
                                          static_cast<double>(flow.reuseGapNs) / 1e6)
                            : std::string("the SYN reused the 4-tuple of an earlier connection");
    if (answerArrow != kNoArrow) {
        story += serverReset ? "; the server reset the SYN"
                             : fmt::format("; the server answered with an ACK of {}'s (a challenge ACK)", earlierName);
    }
    if (clientReset) {
        story += synAgain ? ", the client reset it and sent the SYN again" : ", the client reset it";
    } else if (synAgain) {
        story += ", the client sent the SYN again";
    }
    stall.explanation =
        story + ". Fix: let the kernel pick source ports, keep TCP timestamps on, have the client close first";
    if (answerArrow != kNoArrow) {
        stall.causeArrow = answerArrow;
        stall.causeText = serverReset ? "RST for the old connection" : "ACK of the old connection";
    }
    stall.endText = fmt::format("established +{:.1f} ms", waitMs);
}

const CollisionArrow* SequenceDiagram::collisionArrowOf(size_t arrow) const {
    const auto found = std::lower_bound(collisionArrows_.begin(), collisionArrows_.end(), arrow,
                                        [](const CollisionArrow& entry, size_t value) { return entry.arrow < value; });
    return found != collisionArrows_.end() && found->arrow == arrow ? &*found : nullptr;
}

namespace {

// "SYN (reuses the 4-tuple of #3)": what a packet of a collision is; `brief` for narrow columns.
std::string collisionText(const CollisionArrow& entry, bool brief) {
    const std::string earlier =
        entry.earlierConnection != kNoConnection ? fmt::format("#{}", entry.earlierConnection) : "the old connection";
    switch (entry.role) {
        case CollisionRole::ReusingSyn:
            return brief ? fmt::format("SYN, reuses {}", earlier)
                         : fmt::format("SYN (reuses the 4-tuple of {})", earlier);
        case CollisionRole::ChallengeAck:
            return brief ? std::string("challenge ACK")
                         : fmt::format("challenge ACK (ack for {}'s sequence space)", earlier);
        case CollisionRole::ServerRst:
            return brief ? std::string("RST") : fmt::format("RST (the server still holds {})", earlier);
        case CollisionRole::OldStateRst:
            return brief ? std::string("RST") : std::string("RST (client drops the old state)");
        case CollisionRole::SynAgain: return "SYN again";
    }
    return {};
}

}  // namespace

IndexedPacket SequenceDiagram::packetOf(size_t arrow) const {
    return packets_->at(arrows_.at(arrow).packet);
}

bool SequenceDiagram::isPureAck(size_t arrow) const {
    const IndexedPacket packet = packetOf(arrow);
    return packet.payloadLength == 0 && (packet.tcpFlags & (tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst)) == 0;
}

std::string SequenceDiagram::arrowLabel(size_t arrow, FlagNaming naming) const {
    const IndexedPacket packet = packetOf(arrow);
    if (const CollisionArrow* collision = collisionArrowOf(arrow)) {
        // Its numbers are of the earlier connection's sequence space (or an ISN): they would read as
        // this connection's relative numbers.
        return fmt::format("[{}] {}", tcpFlagsText(packet.tcpFlags), collisionText(*collision, false));
    }
    const Connection& connection = flowOf(packet.connection);
    const RelativeNumbers relative = relativeNumbers(connection, packet);
    std::string label = fmt::format("[{}] seq={}", tcpFlagsText(packet.tcpFlags), relative.seq);
    if ((packet.tcpFlags & tcpflag::kAck) != 0) {
        label += fmt::format(" ack={}", relative.ack);
    }
    label += fmt::format(" len={}", packet.payloadLength);
    const std::string names = analysisFlagsText(packet.analysis, naming);
    if (!names.empty()) {
        label += fmt::format(" ({})", names);
    }
    return label;
}

std::string SequenceDiagram::arrowShortLabel(size_t arrow) const {
    const IndexedPacket packet = packetOf(arrow);
    if (const CollisionArrow* collision = collisionArrowOf(arrow)) {
        return fmt::format("[{}] {}", tcpFlagsText(packet.tcpFlags), collisionText(*collision, true));
    }
    const Connection& connection = flowOf(packet.connection);
    const RelativeNumbers relative = relativeNumbers(connection, packet);
    if (isPureAck(arrow)) {
        return fmt::format("[{}] ack={}", tcpFlagsText(packet.tcpFlags), relative.ack);
    }
    return packet.payloadLength == 0
               ? fmt::format("[{}] seq={}", tcpFlagsText(packet.tcpFlags), relative.seq)
               : fmt::format("[{}] seq={} len={}", tcpFlagsText(packet.tcpFlags), relative.seq, packet.payloadLength);
}

size_t SequenceDiagram::arrowOfFrame(uint32_t frame) const {
    const auto found = std::lower_bound(arrows_.begin(), arrows_.end(), frame,
                                        [](const SequenceArrow& arrow, uint32_t value) { return arrow.frame < value; });
    return found != arrows_.end() && found->frame == frame ? static_cast<size_t>(found - arrows_.begin()) : kNoArrow;
}

size_t SequenceDiagram::firstArrowAtOrAfter(int64_t tsNs) const {
    // Arrows are in capture order, which is time order except for rare steps back of the clock;
    // there the answer is one of the arrows around the step.
    const auto found = std::partition_point(arrows_.begin(), arrows_.end(),
                                            [tsNs](const SequenceArrow& arrow) { return arrow.tsNs < tsNs; });
    return static_cast<size_t>(found - arrows_.begin());
}

std::string SequenceDiagram::participantTitle(size_t lifeline) const {
    const SequenceParticipant& participant = participants_.at(lifeline);
    std::string title = participant.role;
    for (size_t i = 0; i < participant.endpoints.size(); ++i) {
        title += i == 0 ? " " : " / ";
        title += participant.endpoints[i].toString();
    }
    return title;
}

}  // namespace tcpscope
