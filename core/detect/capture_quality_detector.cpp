#include "detect/capture_quality_detector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr size_t kListedFrames = 100;

std::string plural(uint64_t count, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", count, count == 1 ? one : many);
}

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

void CaptureQualityDetector::onSegment(const SegmentEvent& event) {
    const TcpSegment& segment = event.segment;
    if (!event.connection.handshakeAcked) {
        return;  // a connection whose start the capture missed may ACK anything it sent before
    }
    Sent* const sides = highestEnd_.allOf(event.connection.id);
    Sent& own = sides[sideIndex(event.sender)];
    const Sent& peer = sides[sideIndex(otherSide(event.sender))];
    const uint32_t length = segment.payloadLength + ((segment.flags & (tcpflag::kSyn | tcpflag::kFin)) != 0 ? 1 : 0);
    if (length > 0) {
        const uint32_t end = segment.seq + length;
        if (!own.any || seq::gt(end, own.highestEnd)) {
            own.highestEnd = end;
            own.any = true;
        }
    }
    if ((segment.flags & tcpflag::kAck) == 0 || (segment.flags & tcpflag::kRst) != 0 || !peer.any ||
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
    if (!copies && counters.timeBackwards == 0 && unseenAcks_ == 0 && clockContradicted == 0) {
        return;
    }
    std::vector<std::string> problems;
    nlohmann::json::object_t evidence;
    Finding finding;
    finding.kind = "capture_quality";
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
    if (unseenAcks_ > 0) {
        advice.emplace_back("check tcpdump's \"dropped by kernel\" count");
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
