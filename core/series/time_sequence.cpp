#include "series/time_sequence.hpp"

#include "decode/decoded_packet.hpp"
#include "series/connection_packets.hpp"
#include "series/relative_sequence.hpp"

namespace tcpscope {

TimeSequenceSeries timeSequenceOf(const AnalysisEngine& engine, uint32_t connectionId, Side sender) {
    if (connectionId >= engine.connections().size()) {
        return {};
    }
    return timeSequenceOf(engine.packets(), engine.connections()[connectionId], engine.firstTsNs(), sender);
}

TimeSequenceSeries timeSequenceOf(const PacketIndex& packets, const Connection& connection, int64_t originNs,
                                  Side sender) {
    TimeSequenceSeries series;
    const SequenceSummary& sent = connection.sequence[sideIndex(sender)];
    const int peerScale = connection.sequence[sideIndex(otherSide(sender))].windowScale;
    RelativeSequence segmentSeq(sent.baseSeq);
    RelativeSequence ackSeq(sent.baseSeq);
    for (const size_t position : packetPositionsOf(packets, connection)) {
        const IndexedPacket packet = packets.at(position);
        const double x = secondsSince(originNs, packet.tsNs);
        if (senderOf(packet) == sender) {
            if (packet.payloadLength == 0) {
                continue;
            }
            const int64_t first = segmentSeq(packet.seq);
            series.segments.push_back({x, static_cast<double>(first)});
            series.segments.push_back({x, static_cast<double>(first + packet.payloadLength)});
            ++series.dataSegments;
            if (isRetransmission(packet.analysis)) {
                series.retransmissions.push_back({x, static_cast<double>(first)});
                ++series.retransmittedSegments;
            }
            continue;
        }
        if ((packet.tcpFlags & tcpflag::kAck) == 0 || (packet.tcpFlags & tcpflag::kRst) != 0) {
            continue;  // no ACK number; a RST's window means nothing
        }
        const int64_t acked = ackSeq(packet.ack);
        // The window of a SYN is never scaled (RFC 7323); -1/-2: no scaling known or in use.
        const bool scaled = (packet.tcpFlags & tcpflag::kSyn) == 0 && peerScale > 0;
        const int64_t window = int64_t{packet.window} << (scaled ? peerScale : 0);
        appendStep(series.acks, x, static_cast<double>(acked));
        appendStep(series.receiveWindow, x, static_cast<double>(acked + window));
    }
    return series;
}

}  // namespace tcpscope
