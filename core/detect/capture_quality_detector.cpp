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

void CaptureQualityDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    Sent* const sides = highestEnd_.allOf(event.connection.id);
    Sent& own = sides[sideIndex(event.sender)];
    const Sent& peer = sides[sideIndex(otherSide(event.sender))];
    own.heard = true;
    const uint32_t length = segment.payloadLength + ((segment.flags & (tcpflag::kSyn | tcpflag::kFin)) != 0 ? 1 : 0);
    if (length > 0) {
        const uint32_t end = segment.seq + length;
        if (!own.any || seq::gt(end, own.highestEnd)) {
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
    if (!event.connection.handshakeAcked) {
        return;  // a connection whose start the capture missed may ACK anything it sent before
    }
    // Only a side whose own SYN (or SYN-ACK) is in the file acknowledges this connection's data: a
    // challenge ACK to a SYN that fell into TIME_WAIT acknowledges the old connection's.
    if ((segment.flags & tcpflag::kAck) == 0 || (segment.flags & tcpflag::kRst) != 0 || !own.syn || !peer.any ||
        !seq::gt(segment.ack, peer.highestEnd)) {
        return;
    }
    ++unseenAcks_;
    unseenConnections_.insert(event.connection.id);
    if (unseenFrames_.size() < kListedFrames) {
        unseenFrames_.push_back(event.frame);
    }
}

void CaptureQualityDetector::onEnd(int64_t /*lastTsNs*/) {
    const FrameCounters& counters = engine().counters();
    highestEnd_.clear();
    const bool copies = counters.duplicates >= kMinCopies;
    const size_t clockContradicted = clocks_ != nullptr ? clocks_->contradictedCount() : 0;
    const uint64_t missingStarts = missingSynAcks_ + missingClientSides_;
    if (!copies && counters.timeBackwards == 0 && unseenAcks_ == 0 && clockContradicted == 0 && missingStarts == 0) {
        return;
    }
    std::vector<std::string> problems;
    nlohmann::json::object_t evidence;
    Finding finding;
    finding.kind = FindingKind::CaptureQuality;
    finding.severity = Severity::Warning;
    finding.tsNs = engine().firstTsNs();
    if (copies) {
        const uint64_t tcp = counters.tcp + counters.duplicates;
        problems.push_back(fmt::format(
            "{} of {} TCP packets ({:.0f}%) are copies of an earlier packet (captured on several interfaces or "
            "points, or a file holding its trace twice) and were left out of the analysis",
            counters.duplicates, tcp, 100.0 * static_cast<double>(counters.duplicates) / static_cast<double>(tcp)));
        evidence.emplace("duplicate_packets", counters.duplicates);
        evidence.emplace("duplicate_frames", engine().duplicateFrames());
        finding.frames.insert(finding.frames.end(), engine().duplicateFrames().begin(),
                              engine().duplicateFrames().end());
    }
    if (counters.timeBackwards > 0) {
        problems.push_back(fmt::format(
            "time goes backwards {} (by up to {:.3f} s), so the time between packets around {} is not "
            "real",
            plural(counters.timeBackwards, "time", "times"), static_cast<double>(counters.largestBackwardNs) / 1e9,
            counters.timeBackwards == 1 ? "that point" : "those points"));
        evidence.emplace("time_backwards", counters.timeBackwards);
        evidence.emplace("largest_backward_ms", static_cast<double>(counters.largestBackwardNs) / 1e6);
        evidence.emplace("backward_frames", engine().backwardFrames());
        finding.frames.insert(finding.frames.end(), engine().backwardFrames().begin(), engine().backwardFrames().end());
    }
    if (unseenAcks_ > 0) {
        problems.push_back(fmt::format(
            "{} in {} acknowledge data the capture never saw (packets dropped at the capture point, or a "
            "thinned file), so delays measured around them are not real",
            plural(unseenAcks_, "ACK", "ACKs"), plural(unseenConnections_.size(), "connection", "connections")));
        evidence.emplace("acks_of_unseen_data", unseenAcks_);
        evidence.emplace("connections_missing_packets", unseenConnections_.size());
        evidence.emplace("unseen_data_frames", unseenFrames_);
        finding.frames.insert(finding.frames.end(), unseenFrames_.begin(), unseenFrames_.end());
    }
    if (missingStarts > 0) {
        std::vector<std::string> parts;
        if (missingSynAcks_ > 0) {
            parts.push_back(fmt::format("{} the client's SYN but not the server's SYN-ACK, though the server then "
                                        "acknowledges the SYN",
                                        plural(missingSynAcks_, "connection has", "connections have")));
        }
        if (missingClientSides_ > 0) {
            parts.push_back(fmt::format("{} the server's packets only: it acknowledges client data of which no "
                                        "packet is in the file (one direction not captured)",
                                        plural(missingClientSides_, "connection has", "connections have")));
        }
        problems.push_back(fmt::format("{}, so the round trips and delays of {} cannot be measured",
                                       listOf(parts, "; ", "; and "), missingStarts == 1 ? "it" : "them"));
        evidence.emplace("missing_syn_acks", missingSynAcks_);
        evidence.emplace("missing_client_sides", missingClientSides_);
        evidence.emplace("missing_handshake_frames", missingFrames_);
        finding.frames.insert(finding.frames.end(), missingFrames_.begin(), missingFrames_.end());
    }
    if (clockContradicted > 0) {
        int64_t largestNs = 0;
        std::vector<uint32_t> frames;
        for (const TimestampClocks::Contradiction& contradiction : clocks_->listed()) {
            largestNs = std::max(largestNs, contradiction.disagreementNs);
            frames.push_back(contradiction.frame);
        }
        problems.push_back(fmt::format(
            "in {} the frame times disagree with both hosts' TCP timestamp clocks by up to {:.0f} ms (first at "
            "frame {}): no steady clock ticks that way, so the times were rewritten or made up, time measured "
            "between those packets is not real, and their retransmissions are not timed",
            plural(clockContradicted, "connection", "connections"), static_cast<double>(largestNs) / 1e6,
            frames.front()));
        evidence.emplace("clock_contradicted_connections", clockContradicted);
        evidence.emplace("largest_clock_disagreement_ms", static_cast<double>(largestNs) / 1e6);
        evidence.emplace("clock_contradiction_frames", frames);
        finding.frames.insert(finding.frames.end(), frames.begin(), frames.end());
    }
    finding.evidence = std::move(evidence);
    // The advice for what was found: copies and time going back come from how the file was made,
    // missing packets from the capture point, made-up times from a tool that rewrote the file.
    std::vector<std::string> advice;
    if (copies || counters.timeBackwards > 0) {
        advice.emplace_back("capture again with one interface per file (not -i any on bridged interfaces)");
    }
    if (unseenAcks_ > 0 || missingStarts > 0) {
        advice.emplace_back("check tcpdump's \"dropped by kernel\" count");
    }
    if (missingClientSides_ > 0) {
        advice.emplace_back("capture where both directions pass (routes can differ each way)");
    }
    if (clockContradicted > 0) {
        advice.emplace_back("analyse the file as captured, before any tool rewrote its times");
    }
    std::string todo = listOf(advice, ", ", " and ");
    todo[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(todo[0])));
    finding.summary =
        fmt::format("The capture misleads the analysis in places: {}. {}.", listOf(problems, "; ", "; and "), todo);
    log().add(std::move(finding));
    unseenConnections_ = {};
    unseenFrames_ = {};
}

}  // namespace tcpscope
