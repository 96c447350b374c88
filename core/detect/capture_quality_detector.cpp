#include "detect/capture_quality_detector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "finding/wording.hpp"
#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr size_t kListedFrames = 100;

// The items in order, `separator` between them and `last` before the last one.
std::string listOf(const std::vector<std::string>& items, std::string_view separator, std::string_view last) {
    std::string text;
    for (size_t index = 0; index < items.size(); ++index) {
        if (index > 0) {
            text += index + 1 == items.size() ? last : separator;
        }
        text += items[index];
    }
    return text;
}

// A step of the file's clock in the largest unit that reads well: "13.0 days", "54.3 years", "7.2 min".
std::string lengthOf(int64_t ns) {
    const double seconds = static_cast<double>(ns < 0 ? -ns : ns) / 1e9;
    constexpr double kDay = 86400;
    if (seconds >= 365.25 * kDay) {
        return fmt::format("{:.1f} years", seconds / (365.25 * kDay));
    }
    if (seconds >= kDay) {
        return fmt::format("{:.1f} days", seconds / kDay);
    }
    if (seconds >= 3600) {
        return fmt::format("{:.1f} h", seconds / 3600);
    }
    return fmt::format("{:.1f} min", seconds / 60);
}

double shareOf(uint64_t part, uint64_t whole) {
    return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

void CaptureQualityDetector::checkHandshake(const SegmentEvent& event, Sent& server, const Sent& client) {
    const TcpSegment& segment = event.segment;
    if (server.missing || (segment.flags & tcpflag::kAck) == 0 || (segment.flags & tcpflag::kRst) != 0) {
        return;
    }
    // Without its SYN-ACK the server cannot have acknowledged the SYN; a challenge ACK (the SYN
    // fell into an old connection's TIME_WAIT) acknowledges the old connection's sequence, not it.
    const bool synAckMissing = !server.syn && client.syn && client.any && seq::ge(segment.ack, client.synAck) &&
                               seq::le(segment.ack, client.highestEnd);
    // After its SYN-ACK, an ACK beyond the SYN is of client data the capture never saw.
    const bool clientMissing = server.syn && !client.heard && seq::gt(segment.ack, server.synAck);
    if (!synAckMissing && !clientMissing) {
        return;
    }
    server.missing = true;
    ++(synAckMissing ? missingSynAcks_ : missingClientSides_);
    if (missingFrames_.size() < kListedFrames) {
        missingFrames_.push_back(event.frame);
    }
}

uint32_t CaptureQualityDetector::waitingNow() const {
    uint32_t waiting = 0;
    for (size_t index = 0; index + 1 < sides_.size(); index += 2) {
        if (!sides_.holds(index)) {
            continue;  // retired connections
        }
        const Sent& client = sides_[index];
        const Sent& server = sides_[index + 1];
        waiting += (client.outstanding || server.outstanding) && !client.reset && !server.reset ? 1 : 0;
    }
    return waiting;
}

void CaptureQualityDetector::noteAck(const SegmentEvent& event, Sent& own, Sent& peer, uint32_t ack) {
    if (!own.ackSent) {
        own.ackSent = true;
        if (!peer.any) {
            peer.highestEnd = ack;  // the first ACK, until the peer sends data of its own
        }
    } else if (!peer.any && seq::gt(ack, peer.highestEnd)) {
        own.ackAdvanced = true;
    }
    if (!peer.any) {
        return;
    }
    if (seq::ge(ack, peer.highestEnd)) {
        peer.outstanding = false;
    }
    // Only a side whose own SYN (or SYN-ACK) is in the file acknowledges this connection's data when
    // its peer's is: a challenge ACK to a SYN that fell into TIME_WAIT acknowledges the old connection's.
    if (own.syn || !peer.syn) {
        const uint32_t key = event.connection.id * 2 + static_cast<uint32_t>(sideIndex(otherSide(event.sender)));
        peer.unseen = unseenBytes_.onAck(key, peer.unseen, peer.highestEnd, ack, event.connection.handshakeAcked);
    }
}

void CaptureQualityDetector::onSegment(const SegmentEvent& event) {
    if (joins_.largeStepBefore(event)) {
        joins_.addStep(event, static_cast<uint32_t>(sides_.size() / 2), waitingNow());
    }
    joins_.onSegment(event);
    const TcpSegment& segment = event.segment;
    ++segments_;
    withoutPayload_ +=
        segment.payloadLength == 0 || (segment.flags & (tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst)) != 0 ? 1 : 0;
    syns_ += (segment.flags & tcpflag::kSyn) != 0 ? 1 : 0;
    Sent* const sides = sides_.allOf(event.connection.id);
    Sent& own = sides[sideIndex(event.sender)];
    Sent& peer = sides[sideIndex(otherSide(event.sender))];
    own.heard = true;
    const bool reset = (segment.flags & tcpflag::kRst) != 0;
    own.reset = own.reset || reset;
    const uint32_t length = segment.payloadLength + ((segment.flags & (tcpflag::kSyn | tcpflag::kFin)) != 0 ? 1 : 0);
    if (length > 0 && !reset) {
        const uint32_t end = segment.seq + length;
        if (own.any) {
            const uint32_t key = event.connection.id * 2 + static_cast<uint32_t>(sideIndex(event.sender));
            own.unseen = unseenBytes_.onData(key, own.unseen, own.highestEnd, segment.seq, end);
        }
        if (!own.any || seq::gt(end, own.highestEnd)) {
            // A SYN alone waits for nothing anyone can tell (a probe, a refused attempt).
            own.outstanding = own.outstanding || segment.payloadLength > 0 || (segment.flags & tcpflag::kFin) != 0;
            own.highestEnd = end;
            own.any = true;
        }
    }
    if ((segment.flags & tcpflag::kSyn) != 0) {
        own.syn = true;
        // The client's SYN: what its answer acknowledges. The SYN-ACK: what it acknowledged.
        own.synAck = (segment.flags & tcpflag::kAck) == 0 ? segment.seq + 1 : segment.ack;
    } else if (event.sender == Side::Server) {
        checkHandshake(event, own, peer);
    }
    if ((segment.flags & tcpflag::kAck) == 0 || reset) {
        return;
    }
    // The unseen-ACK test below reads the peer's highest end as it was before this ACK.
    const bool beyondPeer = peer.any && seq::gt(segment.ack, peer.highestEnd);
    noteAck(event, own, peer, segment.ack);
    // A connection whose start the capture missed may ACK anything it sent before; only a side whose
    // own SYN (or SYN-ACK) is in the file acknowledges this connection's data.
    if (!event.connection.handshakeAcked || !own.syn || !beyondPeer) {
        return;
    }
    ++unseenAcks_;
    unseenConnections_.insert(event.connection.id);
    if (unseenFrames_.size() < kListedFrames) {
        unseenFrames_.push_back(event.frame);
    }
}

void CaptureQualityDetector::settle(const Connection& connection, const Sent* sides) {
    for (const Side side : {Side::Client, Side::Server}) {
        const Sent& sent = sides[sideIndex(side)];
        if (sent.unseen) {
            unseenBytes_.settle(connection.id * 2 + static_cast<uint32_t>(sideIndex(side)), sent.highestEnd,
                                connection.handshakeAckTsNs != kNoTime);
        }
    }
    const Sent& client = sides[sideIndex(Side::Client)];
    const Sent& server = sides[sideIndex(Side::Server)];
    // Its ACKs moved on past the first: the side not captured sent data or a FIN.
    const bool clientOnly = client.heard && !server.heard && client.ackAdvanced;
    const bool serverOnly = server.heard && !client.heard && server.ackAdvanced;
    if (!clientOnly && !serverOnly) {
        return;
    }
    ++oneSided_;
    oneSidedPackets_ += connection.from(clientOnly ? Side::Client : Side::Server).packets;
    if (oneSidedFrames_.size() < kListedFrames) {
        oneSidedFrames_.push_back(connection.firstFrame);
    }
}

void CaptureQualityDetector::onRetire(const Connection& connection) {
    settle(connection, sides_.allOf(connection.id));
    sides_.release(connection.id);
}

void CaptureQualityDetector::describeTime(std::vector<Problem>& problems, Finding& finding,
                                          nlohmann::json::object_t& evidence) const {
    const FrameCounters& counters = engine().counters();
    if (counters.duplicates >= kMinCopies) {
        const uint64_t tcp = counters.tcp + counters.duplicates;
        const double share = shareOf(counters.duplicates, tcp);
        const bool warns = share >= kCopiesWarnShare;
        problems.push_back(
            {fmt::format("{} of {} TCP packets ({:.{}f}%) are copies of an earlier packet (captured on several "
                         "interfaces or points, or a file holding its trace twice) and were left out of the analysis",
                         counters.duplicates, tcp, 100.0 * share, warns ? 0 : 1),
             warns});
        evidence.emplace("duplicate_packets", counters.duplicates);
        evidence.emplace("duplicate_frames", engine().duplicateFrames());
        finding.frames.insert(finding.frames.end(), engine().duplicateFrames().begin(),
                              engine().duplicateFrames().end());
    }
    if (counters.timeBackwards > 0) {
        problems.push_back({fmt::format(
            "time goes backwards {} (by up to {:.3f} s), so the time between packets "
            "around {} is not real",
            plural(counters.timeBackwards, "time", "times"), static_cast<double>(counters.largestBackwardNs) / 1e9,
            counters.timeBackwards == 1 ? "that point" : "those points")});
        evidence.emplace("time_backwards", counters.timeBackwards);
        evidence.emplace("largest_backward_ms", static_cast<double>(counters.largestBackwardNs) / 1e6);
        evidence.emplace("backward_frames", engine().backwardFrames());
        finding.frames.insert(finding.frames.end(), engine().backwardFrames().begin(), engine().backwardFrames().end());
    }
    const std::vector<CaptureJoins::Step> jumps = joins_.clockJumps();
    if (!jumps.empty()) {
        std::vector<std::string> steps;
        nlohmann::json::array_t listed;
        for (const CaptureJoins::Step& jump : jumps) {
            steps.push_back(fmt::format("{} by {} at frame {}", jump.stepNs > 0 ? "forward" : "back",
                                        lengthOf(jump.stepNs), jump.frame));
            listed.push_back({{"frame", jump.frame}, {"step_s", static_cast<double>(jump.stepNs) / 1e9}});
            finding.frames.push_back(jump.frame);
        }
        problems.push_back(
            {fmt::format("the clock jumps {}, more than any capture runs between two packets (files "
                         "from different times merged, or a clock set wrong), so time measured across "
                         "{} (the capture's length, rates, waits) is not real",
                         listOf(steps, ", ", " and "), jumps.size() == 1 ? "it" : "them")});
        evidence.emplace("clock_jumps", std::move(listed));
    }
    const std::vector<CaptureJoins::Step> joins = joins_.joins();
    if (!joins.empty()) {
        const CaptureJoins::Step& join = joins.front();
        nlohmann::json::array_t listed;
        for (const CaptureJoins::Step& each : joins) {
            listed.push_back({{"frame", each.frame},
                              {"step_s", static_cast<double>(each.stepNs) / 1e9},
                              {"connections_before", each.before},
                              {"waiting", each.waiting}});
            finding.frames.push_back(each.frame);
        }
        problems.push_back(
            {fmt::format("{} joined at frame {}{}: time steps forward {}, and none of the {} seen before it shows "
                         "again though {} waiting for data to be acknowledged (TCP sends it again within 2 minutes), "
                         "so the file holds captures one after the other; the waits of the connections cut at a "
                         "join are where a recording stopped, not losses, and time across it is not real",
                         joins.size() == 1 ? "two recordings are" : "recordings are", join.frame,
                         joins.size() > 1 ? fmt::format(" (and {} more places)", joins.size() - 1) : std::string(),
                         lengthOf(join.stepNs), plural(join.before, "connection", "connections"),
                         plural(join.waiting, "was", "were"))});
        evidence.emplace("joins", std::move(listed));
    }
}

void CaptureQualityDetector::describeMissing(std::vector<Problem>& problems, Finding& finding,
                                             nlohmann::json::object_t& evidence) const {
    if (unseenAcks_ > 0) {
        problems.push_back({fmt::format(
            "{} in {} acknowledge data the capture never saw (packets dropped at the capture point, or a "
            "thinned file), so delays measured around them are not real",
            plural(unseenAcks_, "ACK", "ACKs"), plural(unseenConnections_.size(), "connection", "connections"))});
        evidence.emplace("acks_of_unseen_data", unseenAcks_);
        evidence.emplace("connections_missing_packets", unseenConnections_.size());
        evidence.emplace("unseen_data_frames", unseenFrames_);
        finding.frames.insert(finding.frames.end(), unseenFrames_.begin(), unseenFrames_.end());
    }
    // Holes the receiver acknowledged inside connections whose handshake the file holds are packets
    // missing as surely as an ACK beyond the highest byte seen (the statement above, when it was made).
    if (unseenAcks_ == 0 && unseenBytes_.missingBytesInStarted() > 0) {
        problems.push_back({fmt::format(
            "in {} whose handshake the file holds, {} B in {} were acknowledged by the receiver but never captured "
            "(packets dropped at the capture point, or a thinned file), so delays measured around them are not real",
            plural(unseenBytes_.startedConnections(), "connection", "connections"),
            groupedDigits(unseenBytes_.missingBytesInStarted()), plural(unseenBytes_.gapsInStarted(), "gap", "gaps"))});
        evidence.emplace("unseen_bytes_in_started_connections", unseenBytes_.missingBytesInStarted());
    }
    const uint64_t acknowledged = capturedBytes_ + unseenBytes_.missingBytes();
    const double missingShare = shareOf(unseenBytes_.missingBytes(), acknowledged);
    if (missingShare >= kMissingShare || unseenBytes_.gaps() >= kManyGaps) {
        problems.push_back({fmt::format(
            "{} B of the {} B the receivers acknowledged ({:.1f}%) never reached the file, in {}: round trips, "
            "Nagle, zero-window and loss verdicts around them are unreliable, and the stalls of the missing packets "
            "cannot be seen",
            groupedDigits(unseenBytes_.missingBytes()), groupedDigits(acknowledged), 100.0 * missingShare,
            plural(unseenBytes_.gaps(), "gap", "gaps"))});
        evidence.emplace("unseen_bytes", unseenBytes_.missingBytes());
        evidence.emplace("acknowledged_bytes", acknowledged);
        evidence.emplace("unseen_gaps", unseenBytes_.gaps());
    }
    const bool oneDirection = shareOf(oneSidedPackets_, segments_) >= kOneSidedShare;
    const uint64_t missingStarts = missingSynAcks_ + (oneDirection ? 0 : missingClientSides_);
    if (missingStarts > 0) {
        std::vector<std::string> parts;
        if (missingSynAcks_ > 0) {
            parts.push_back(fmt::format("{} the client's SYN but not the server's SYN-ACK, though the server then "
                                        "acknowledges the SYN",
                                        plural(missingSynAcks_, "connection has", "connections have")));
        }
        if (missingClientSides_ > 0 && !oneDirection) {
            parts.push_back(fmt::format("{} the server's packets only: it acknowledges client data of which no "
                                        "packet is in the file (one direction not captured)",
                                        plural(missingClientSides_, "connection has", "connections have")));
        }
        problems.push_back({fmt::format("{}, so the round trips and delays of {} cannot be measured",
                                        listOf(parts, "; ", "; and "), missingStarts == 1 ? "it" : "them")});
    }
    if (missingSynAcks_ + missingClientSides_ > 0) {
        evidence.emplace("missing_syn_acks", missingSynAcks_);
        evidence.emplace("missing_client_sides", missingClientSides_);
        evidence.emplace("missing_handshake_frames", missingFrames_);
        finding.frames.insert(finding.frames.end(), missingFrames_.begin(), missingFrames_.end());
    }
    if (oneDirection) {
        problems.push_back({fmt::format(
            "the file holds one direction only: {} ({:.0f}% of the TCP packets) {} only one side's packets, though "
            "its ACKs show the other side sent data, so no round trip can be measured and no Nagle, zero-window or "
            "retransmission verdict is possible for the side not captured",
            plural(oneSided_, "connection", "connections"), 100.0 * shareOf(oneSidedPackets_, segments_),
            oneSided_ == 1 ? "has" : "have")});
        evidence.emplace("one_sided_connections", oneSided_);
        evidence.emplace("one_sided_packets", oneSidedPackets_);
        evidence.emplace("one_sided_frames", oneSidedFrames_);
        finding.frames.insert(finding.frames.end(), oneSidedFrames_.begin(), oneSidedFrames_.end());
    }
    // Requests and responses on kept-alive connections carry every ACK on data, so their pure ACKs
    // can be as few as a filter leaves; but a filter on flags or length drops every SYN.
    if (segments_ >= kPayloadOnlyMin && syns_ == 0 && shareOf(withoutPayload_, segments_) < kPayloadOnlyShare) {
        problems.push_back({fmt::format(
            "the file holds data segments only ({} of {} carry payload; no SYN, FIN, RST or pure ACK but {}): it "
            "was filtered (`tcp[13] & 8 != 0`, `len > N`), so without handshakes port reuse, listen-backlog overflow, "
            "unanswered SYNs and TIME_WAIT cannot be judged, and without pure ACKs neither delayed ACKs, zero "
            "windows nor round trips can be measured",
            segments_ - withoutPayload_, segments_, withoutPayload_)});
        evidence.emplace("segments_without_payload", withoutPayload_);
    }
}

void CaptureQualityDetector::onEnd(int64_t /*lastTsNs*/) {
    const ConnectionStore& connections = engine().connections();
    for (size_t index = 0; index + 1 < sides_.size(); index += 2) {
        if (sides_.holds(index)) {
            settle(connections[index / 2], &sides_[index]);
        }
    }
    sides_.clear();
    // The data captured once, for the share of it that never arrived.
    for (size_t index = 0; index < connections.size(); ++index) {
        if (connections.holds(index)) {
            for (const Side side : {Side::Client, Side::Server}) {
                const DirectionSummary& sent = connections[index].from(side);
                capturedBytes_ += sent.payloadBytes - std::min(sent.retransmittedBytes, sent.payloadBytes);
            }
        }
    }
    std::vector<Problem> problems;
    nlohmann::json::object_t evidence;
    Finding finding;
    finding.kind = FindingKind::CaptureQuality;
    finding.tsNs = engine().firstTsNs();
    describeTime(problems, finding, evidence);
    describeMissing(problems, finding, evidence);
    const size_t clockContradicted = clocks_ != nullptr ? clocks_->contradictedCount() : 0;
    if (clockContradicted > 0) {
        int64_t largestNs = 0;
        std::vector<uint32_t> frames;
        for (const TimestampClocks::Contradiction& contradiction : clocks_->listed()) {
            largestNs = std::max(largestNs, contradiction.disagreementNs);
            frames.push_back(contradiction.frame);
        }
        problems.push_back({fmt::format(
            "in {} the frame times disagree with both hosts' TCP timestamp clocks by up to {:.0f} ms (first at "
            "frame {}): no steady clock ticks that way, so the times were rewritten or made up, time measured "
            "between those packets is not real, and their retransmissions are not timed",
            plural(clockContradicted, "connection", "connections"), static_cast<double>(largestNs) / 1e6,
            frames.front())});
        evidence.emplace("clock_contradicted_connections", clockContradicted);
        evidence.emplace("largest_clock_disagreement_ms", static_cast<double>(largestNs) / 1e6);
        evidence.emplace("clock_contradiction_frames", frames);
        finding.frames.insert(finding.frames.end(), frames.begin(), frames.end());
    }
    unseenConnections_ = {};
    unseenFrames_ = {};
    if (problems.empty()) {
        return;
    }
    const bool warns =
        std::any_of(problems.begin(), problems.end(), [](const Problem& problem) { return problem.warns; });
    finding.severity = warns ? Severity::Warning : Severity::Info;
    finding.evidence = std::move(evidence);
    std::vector<std::string> texts;
    for (const Problem& problem : problems) {
        texts.push_back(problem.text);
    }
    if (!warns) {  // a few copies, left out: nothing else to doubt
        finding.summary = fmt::format("The capture holds some packets twice, too few to mislead the analysis: {}.",
                                      listOf(texts, "; ", "; and "));
        log().add(std::move(finding));
        return;
    }
    // The advice for what was found: copies and time going back come from how the file was made,
    // missing packets from the capture point, made-up times from a tool that rewrote the file.
    const FrameCounters& counters = engine().counters();
    const bool largeUnseen = finding.evidence.contains("unseen_bytes");
    std::vector<std::string> advice;
    if (counters.duplicates >= kMinCopies || counters.timeBackwards > 0) {
        advice.emplace_back("capture again with one interface per file (not -i any on bridged interfaces)");
    }
    if (finding.evidence.contains("joins") || finding.evidence.contains("clock_jumps")) {
        advice.emplace_back("analyse each recording on its own (editcap -A / -B splits a file by time)");
    }
    if (unseenAcks_ > 0 || missingSynAcks_ + missingClientSides_ > 0 || largeUnseen ||
        unseenBytes_.missingBytesInStarted() > 0) {
        advice.emplace_back("check tcpdump's \"dropped by kernel\" count");
    }
    if (missingClientSides_ > 0 || finding.evidence.contains("one_sided_connections")) {
        advice.emplace_back("capture where both directions pass (routes can differ each way)");
    }
    if (finding.evidence.contains("segments_without_payload")) {
        advice.emplace_back("capture without a filter on TCP flags or length (a snap length keeps the headers)");
    }
    if (clockContradicted > 0) {
        advice.emplace_back("analyse the file as captured, before any tool rewrote its times");
    }
    std::string todo = listOf(advice, ", ", " and ");
    todo[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(todo[0])));
    finding.summary =
        fmt::format("The capture misleads the analysis in places: {}. {}.", listOf(texts, "; ", "; and "), todo);
    log().add(std::move(finding));
}

}  // namespace tcpscope
