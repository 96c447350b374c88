#include "series/window_scaling.hpp"

#include <algorithm>

#include "decode/decoded_packet.hpp"
#include "series/connection_packets.hpp"
#include "series/relative_sequence.hpp"

namespace tcpscope {

WindowScalingSeries windowScalingOf(const PacketIndex& packets, const Connection& connection, int64_t originNs,
                                    Side sender) {
    WindowScalingSeries series;
    const SequenceSummary& sent = connection.sequence[sideIndex(sender)];
    const int peerScale = connection.sequence[sideIndex(otherSide(sender))].windowScale;
    series.windowScale = peerScale;
    RelativeSequence segmentSeq(sent.baseSeq);
    RelativeSequence ackSeq(sent.baseSeq);
    int64_t highestSent = 0;
    int64_t highestAcked = 0;
    bool anyAck = false;
    double lastX = 0;
    visitPacketsOf(packets, connection, [&](size_t position) {
        const IndexedPacket packet = packets.at(position);
        const double x = secondsSince(originNs, packet.tsNs);
        lastX = x;
        if (senderOf(packet) == sender) {
            if (packet.payloadLength == 0) {
                return true;
            }
            highestSent = std::max(highestSent, segmentSeq(packet.seq) + int64_t{packet.payloadLength});
        } else {
            if ((packet.tcpFlags & tcpflag::kAck) == 0 || (packet.tcpFlags & tcpflag::kRst) != 0) {
                return true;  // no ACK number; a RST's window means nothing
            }
            // The window of a SYN is never scaled (RFC 7323); -1/-2: no scaling known or in use.
            const bool scaled = (packet.tcpFlags & tcpflag::kSyn) == 0 && peerScale > 0;
            const auto window = static_cast<double>(int64_t{packet.window} << (scaled ? peerScale : 0));
            appendStep(series.receiveWindow, x, window);
            series.peakWindow = std::max(series.peakWindow, window);
            highestAcked = std::max(highestAcked, ackSeq(packet.ack));
            anyAck = true;
        }
        // Before the first ACK the handshake's byte (the SYN) is all that counts as acknowledged.
        const int64_t acked = anyAck ? highestAcked : 1;
        const auto inFlight = static_cast<double>(std::max<int64_t>(highestSent - acked, 0));
        appendStep(series.bytesInFlight, x, inFlight);
        series.peakInFlight = std::max(series.peakInFlight, inFlight);
        return true;
    });
    // A value that never changed is one point: the staircases run on to the connection's last packet.
    for (std::vector<ChartPoint>* steps : {&series.receiveWindow, &series.bytesInFlight}) {
        if (!steps->empty() && steps->back().x < lastX) {
            steps->push_back({lastX, steps->back().y});
        }
    }
    return series;
}

}  // namespace tcpscope
