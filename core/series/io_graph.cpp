#include "series/io_graph.hpp"

namespace tcpscope {

IoGraphLine ioGraphLineOf(const PacketIndex& packets, int64_t originNs,
                          const std::function<bool(size_t position)>& keep) {
    IoGraphLine line;
    for (size_t position = 0; position < packets.size(); ++position) {
        if (keep && !keep(position)) {
            continue;
        }
        const IndexedPacket packet = packets.at(position);
        line.packets.push_back({secondsSince(originNs, packet.tsNs), double(packet.payloadLength)});
        line.payloadBytes += packet.payloadLength;
    }
    return line;
}

}  // namespace tcpscope
