#include "detect/capture_quality_detector.hpp"

#include <fmt/format.h>

#include <string>

#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

constexpr size_t kListedFrames = 100;

std::string plural(uint64_t count, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", count, count == 1 ? one : many);
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
    if (!copies && counters.timeBackwards == 0 && unseenAcks_ == 0) {
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
    std::string text;
    for (size_t index = 0; index < problems.size(); ++index) {
        text += (index == 0 ? "" : index + 1 == problems.size() ? "; and " : "; ") + problems[index];
    }
    finding.evidence = std::move(evidence);
    finding.summary = fmt::format("The capture misleads the analysis in places: {}. Capture again with one "
                                  "interface per file (not -i any on bridged interfaces) and check tcpdump's "
                                  "\"dropped by kernel\" count.",
                                  text);
    log().add(std::move(finding));
    unseenConnections_ = {};
    unseenFrames_ = {};
}

}  // namespace tcpscope
