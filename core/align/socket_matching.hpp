#pragma once
#include <cstdint>
#include <vector>

#include "align/traced_socket.hpp"

namespace tcpscope {

/// Differences between the capture's clock and a log's, seen by pairing its sockets with the
/// connections that have the same endpoints: one per (socket, candidate connection).
std::vector<int64_t> handshakeOffsetSamples(const std::vector<TracedSocket>& sockets,
                                            const ConnectionStore& connections, int64_t logToCaptureNs);

/// Ties each socket to the connection it was: same endpoints (from -yy decorations, or the
/// connect() target, or the accept() peer) and the nearest time once `logToCaptureNs` is added
/// to the log's times. Sets TracedSocket::connection, side and match.
void matchSocketsToConnections(std::vector<TracedSocket>& sockets, const ConnectionStore& connections,
                               const std::vector<int64_t>& logToCaptureNs);

}  // namespace tcpscope
