#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "tcp/connection.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope {

/// Positions in `packets` of every packet of `connection`, in capture order. Reads only the
/// stretch of the index between the connection's first and last frame.
std::vector<size_t> packetPositionsOf(const PacketIndex& packets, const Connection& connection);
/// Calls `visit(position)` for each packet of `connection`, in capture order, until it returns false.
void visitPacketsOf(const PacketIndex& packets, const Connection& connection,
                    const std::function<bool(size_t position)>& visit);

/// Flagged retransmission, fast_retransmission or spurious_retransmission by the sequence analysis.
inline bool isRetransmission(AnalysisFlags flags) {
    return (flags & (bit(AnalysisFlag::Retransmission) | bit(AnalysisFlag::FastRetransmission) |
                     bit(AnalysisFlag::SpuriousRetransmission))) != 0;
}

/// The side that sent `packet`.
inline Side senderOf(const IndexedPacket& packet) {
    return packet.fromServer ? Side::Server : Side::Client;
}

}  // namespace tcpscope
