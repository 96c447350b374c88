#pragma once
// Synthetic timeline content for the timeline tests and benchmark: connections, findings and
// packets built in code.
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "finding/finding.hpp"
#include "tcp/connection.hpp"
#include "timeline/timeline_model.hpp"

namespace timeline_test {

inline tcpscope::Endpoint endpoint(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port) {
    const std::array<uint8_t, 4> bytes = {a, b, c, d};
    return {tcpscope::IpAddress::fromV4(bytes.data()), port};
}

inline tcpscope::Connection connection(uint32_t id, tcpscope::Endpoint client, tcpscope::Endpoint server,
                                       int64_t firstTsNs, int64_t lastTsNs) {
    tcpscope::Connection made;
    made.id = id;
    made.client = client;
    made.server = server;
    made.firstTsNs = firstTsNs;
    made.lastTsNs = lastTsNs;
    made.state = tcpscope::ConnectionState::Closed;
    return made;
}

/// A delayed_ack_stall finding as the detector writes it: one span (and evidence instance) per
/// (offset, hold).
inline tcpscope::Finding nagleFinding(uint32_t id, uint32_t connection, int64_t tsNs,
                                      const std::vector<std::pair<double, double>>& offsetAndHoldMs) {
    tcpscope::Finding finding;
    finding.id = id;
    finding.kind = tcpscope::FindingKind::DelayedAckStall;
    finding.severity = tcpscope::Severity::Warning;
    finding.connection = connection;
    finding.tsNs = tsNs;
    finding.evidence = {{"instances", nlohmann::json::array()}};
    for (const auto& [offsetMs, holdMs] : offsetAndHoldMs) {
        finding.durationMs += holdMs;
        finding.evidence["instances"].push_back(
            {{"frames", {1, 2, 3}}, {"ts_offset_ms", offsetMs}, {"hold_ms", holdMs}});
        tcpscope::FindingSpan& span = finding.spans.emplace_back();
        span.startNs = tsNs + std::llround(offsetMs * 1e6);
        span.endNs = span.startNs + std::llround(holdMs * 1e6);
        span.connection = connection;
        span.frames = {{tcpscope::FrameRole::SmallSegment, 1},
                       {tcpscope::FrameRole::LateAck, 2},
                       {tcpscope::FrameRole::HeldSegment, 3}};
    }
    return finding;
}

/// `connections` connections of `packetsEach` packets, one every `spacingNs`, staggered by
/// `staggerNs`, alternating direction; every 97th packet a retransmission.
struct SyntheticCapture {
    tcpscope::ConnectionStore connections;
    tcpscope::FindingList findings;
    tcpscope::ui::TimeRange range;
};

inline SyntheticCapture syntheticCapture(uint32_t connections, size_t packetsEach, int64_t spacingNs, int64_t staggerNs,
                                         int64_t startNs) {
    SyntheticCapture capture;
    for (uint32_t id = 0; id < connections; ++id) {
        const int64_t first = startNs + static_cast<int64_t>(id) * staggerNs;
        const int64_t last = first + static_cast<int64_t>(packetsEach - 1) * spacingNs;
        capture.connections.append(
            connection(id, endpoint(10, 0, static_cast<uint8_t>(id % 7), 1, static_cast<uint16_t>(40000 + id)),
                       endpoint(10, 1, 0, static_cast<uint8_t>(1 + id % 3), 443), first, last));
        capture.range.endNs = std::max(capture.range.endNs, last);
    }
    capture.range.startNs = startNs;
    return capture;
}

/// Feeds the packets of syntheticCapture() in time order, as the packet index holds them.
inline tcpscope::ui::TimelineModel buildModel(const SyntheticCapture& capture, size_t packetsEach, int64_t spacingNs,
                                              int64_t staggerNs) {
    tcpscope::ui::TimelineModelBuilder builder(capture.connections, capture.findings, capture.range);
    const auto count = static_cast<uint32_t>(capture.connections.size());
    builder.reservePackets(packetsEach * count);
    // Packet index positions follow a global time order: interleave the connections.
    size_t index = 0;
    const int64_t startNs = capture.range.startNs;
    if (staggerNs == 0) {
        for (size_t packet = 0; packet < packetsEach; ++packet) {
            for (uint32_t id = 0; id < count; ++id) {
                const bool fromServer = packet % 2 == 1;
                const tcpscope::AnalysisFlags flags =
                    packet % 97 == 96 ? tcpscope::bit(tcpscope::AnalysisFlag::Retransmission) : 0;
                builder.addPacket(index++, startNs + static_cast<int64_t>(packet) * spacingNs, id, fromServer, flags,
                                  0x18, true);
            }
        }
    } else {
        for (uint32_t id = 0; id < count; ++id) {
            for (size_t packet = 0; packet < packetsEach; ++packet) {
                builder.addPacket(
                    index++, startNs + static_cast<int64_t>(id) * staggerNs + static_cast<int64_t>(packet) * spacingNs,
                    id, packet % 2 == 1, 0, 0x18, true);
            }
        }
    }
    return builder.finish();
}

}  // namespace timeline_test
