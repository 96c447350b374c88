#include "series/throughput.hpp"

#include "series/connection_packets.hpp"

namespace tcpscope {

ThroughputSeries throughputOf(const PacketIndex& packets, const Connection& connection, int64_t originNs) {
    ThroughputSeries series;
    visitPacketsOf(packets, connection, [&](size_t position) {
        const IndexedPacket packet = packets.at(position);
        if (packet.payloadLength > 0) {
            const size_t side = sideIndex(senderOf(packet));
            series.segments[side].push_back({secondsSince(originNs, packet.tsNs), double(packet.payloadLength)});
            series.payloadBytes[side] += packet.payloadLength;
        }
        return true;
    });
    return series;
}

}  // namespace tcpscope
