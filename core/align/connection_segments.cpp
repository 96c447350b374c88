#include "align/connection_segments.hpp"

namespace tcpscope {

ConnectionSegments::ConnectionSegments(const AnalysisEngine& engine, const std::vector<bool>& wanted)
    : segments_(engine.connections().size() * 2) {
    const PacketIndex& packets = engine.packets();
    const auto& connections = engine.connections();
    for (size_t i = 0; i < packets.size(); ++i) {
        const uint32_t id = packets.connection(i);
        if (id >= wanted.size() || !wanted[id]) {
            continue;
        }
        const IndexedPacket packet = packets.at(i);
        if (packet.payloadLength == 0) {
            continue;
        }
        const Side side = packet.fromServer ? Side::Server : Side::Client;
        const SequenceSummary& sender = connections[id].sequence[sideIndex(side)];
        // Stream offset 0 is the byte after the SYN (relative sequence number 1).
        const uint32_t relative = packet.seq - sender.baseSeq - 1;
        segments_[id * 2 + sideIndex(side)].push_back(
            StreamSegment{relative, packet.payloadLength, packet.frame, packet.tsNs});
    }
}

const std::vector<StreamSegment>& ConnectionSegments::of(uint32_t connection, Side side) const {
    const size_t index = size_t{connection} * 2 + sideIndex(side);
    return index < segments_.size() ? segments_[index] : empty_;
}

}  // namespace tcpscope
