#include "series/rtt_samples.hpp"

#include <algorithm>
#include <deque>

#include "decode/decoded_packet.hpp"
#include "series/connection_packets.hpp"
#include "tcp/seq_math.hpp"

namespace tcpscope {

namespace {

// A segment sent and not yet acknowledged.
struct Unacked {
    uint32_t seq = 0;
    uint32_t end = 0;  // seq + length (+1 for SYN, +1 for FIN)
    int64_t tsNs = 0;
    uint32_t frame = 0;
    bool sentTwice = false;  // this range, or part of it, went out more than once: Karn's rule
};

// Bounds the memory of a capture whose ACKs are missing: older entries are dropped first.
constexpr size_t kMaxUnacked = size_t{1} << 20;

}  // namespace

std::vector<RttSample> rttSamplesOf(const AnalysisEngine& engine, uint32_t connectionId, Side sender) {
    if (connectionId >= engine.connections().size()) {
        return {};
    }
    return rttSamplesOf(engine.packets(), engine.connections()[connectionId], sender);
}

std::vector<RttSample> rttSamplesOf(const PacketIndex& packets, const Connection& connection, Side sender) {
    std::vector<RttSample> samples;
    std::deque<Unacked> unacked;  // in sending order
    bool ordered = true;          // every entry ends after the one before it
    for (const size_t position : packetPositionsOf(packets, connection)) {
        const IndexedPacket packet = packets.at(position);
        if (senderOf(packet) == sender) {
            const uint32_t controlLength =
                ((packet.tcpFlags & tcpflag::kSyn) != 0 ? 1u : 0u) + ((packet.tcpFlags & tcpflag::kFin) != 0 ? 1u : 0u);
            const uint32_t length = packet.payloadLength + controlLength;
            if (length == 0 || (packet.tcpFlags & tcpflag::kRst) != 0) {
                continue;
            }
            // Flagged by the sequence analysis (even a spurious retransmission after the ACK), or
            // overlapping a range still in flight below: either way sent more than once.
            Unacked segment{packet.seq, packet.seq + length, packet.tsNs, packet.frame,
                            isRetransmission(packet.analysis)};
            if (!unacked.empty() && seq::lt(segment.seq, unacked.back().end)) {
                // Below what was already sent: a retransmission (or reordering) of ranges in flight.
                ordered = false;
                for (Unacked& earlier : unacked) {
                    if (seq::lt(segment.seq, earlier.end) && seq::lt(earlier.seq, segment.end)) {
                        earlier.sentTwice = true;
                        segment.sentTwice = true;
                    }
                }
            }
            unacked.push_back(segment);
            if (unacked.size() > kMaxUnacked) {
                unacked.pop_front();
            }
            continue;
        }
        if ((packet.tcpFlags & tcpflag::kAck) == 0 || (packet.tcpFlags & tcpflag::kRst) != 0) {
            continue;
        }
        // Every segment the ACK covers leaves the list; one that ends exactly at it is measured.
        // While the ends rise in sending order, the covered ones are at the front.
        const Unacked* measured = nullptr;
        bool ambiguous = false;
        size_t covered = 0;
        for (const Unacked& segment : unacked) {
            if (seq::gt(segment.end, packet.ack)) {
                if (ordered) {
                    break;
                }
                continue;
            }
            ++covered;
            if (segment.end == packet.ack) {
                ambiguous = ambiguous || segment.sentTwice || measured != nullptr;
                measured = &segment;
            }
        }
        // A zero time says only that both packets got the same timestamp; tshark shows no
        // ack_rtt for it either.
        if (measured != nullptr && !ambiguous && packet.tsNs != measured->tsNs) {
            samples.push_back(
                {packet.tsNs, static_cast<double>(packet.tsNs - measured->tsNs) / 1e6, measured->frame, packet.frame});
        }
        if (covered == 0) {
            continue;
        }
        if (ordered) {
            unacked.erase(unacked.begin(), unacked.begin() + static_cast<std::ptrdiff_t>(covered));
        } else {
            std::erase_if(unacked, [&](const Unacked& segment) { return !seq::gt(segment.end, packet.ack); });
            ordered = std::is_sorted(unacked.begin(), unacked.end(),
                                     [](const Unacked& a, const Unacked& b) { return seq::lt(a.end, b.end); });
        }
    }
    return samples;
}

std::vector<ChartPoint> rttPoints(const std::vector<RttSample>& samples, int64_t originNs) {
    std::vector<ChartPoint> points;
    points.reserve(samples.size());
    for (const RttSample& sample : samples) {
        points.push_back({secondsSince(originNs, sample.ackTsNs), sample.rttMs});
    }
    return points;
}

}  // namespace tcpscope
