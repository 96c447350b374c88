#include "series/connection_packets.hpp"

#include <algorithm>

namespace tcpscope {

std::vector<size_t> packetPositionsOf(const PacketIndex& packets, const Connection& connection) {
    std::vector<size_t> positions;
    visitPacketsOf(packets, connection, [&positions](size_t position) {
        positions.push_back(position);
        return true;
    });
    return positions;
}

void visitPacketsOf(const PacketIndex& packets, const Connection& connection,
                    const std::function<bool(size_t position)>& visit) {
    const size_t begin = packets.firstAtOrAfterFrame(connection.firstFrame);
    const size_t end = std::min(packets.size(), packets.firstAtOrAfterFrame(connection.lastFrame) + 1);
    for (size_t position = begin; position < end; ++position) {
        if (packets.connection(position) == connection.id && !visit(position)) {
            return;
        }
    }
}

}  // namespace tcpscope
