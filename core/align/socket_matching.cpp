#include "align/socket_matching.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <limits>

#include "align/log_time.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kMaxDistanceNs = 5'000'000'000;  // a socket and its connection overlap, or nearly

// Candidates indexed by endpoint, so a log with thousands of sockets does not scan every connection.
struct EndpointIndex {
    absl::flat_hash_map<std::pair<std::array<uint8_t, 16>, uint16_t>, std::vector<uint32_t>> byServer;
    absl::flat_hash_map<std::pair<std::array<uint8_t, 16>, uint16_t>, std::vector<uint32_t>> byClient;

    explicit EndpointIndex(const ConnectionStore& connections) {
        for (const Connection& c : connections) {
            byServer[{c.server.address.bytes, c.server.port}].push_back(c.id);
            byClient[{c.client.address.bytes, c.client.port}].push_back(c.id);
        }
    }
    [[nodiscard]] const std::vector<uint32_t>* servers(const Endpoint& e) const {
        const auto found = byServer.find({e.address.bytes, e.port});
        return found == byServer.end() ? nullptr : &found->second;
    }
    [[nodiscard]] const std::vector<uint32_t>* clients(const Endpoint& e) const {
        const auto found = byClient.find({e.address.bytes, e.port});
        return found == byClient.end() ? nullptr : &found->second;
    }
};

struct Candidate {
    uint32_t connection;
    Side side;
    SocketMatch match;
};

// The connections a socket could be, with the side the traced process was on.
std::vector<Candidate> candidatesOf(const TracedSocket& socket, const ConnectionStore& connections,
                                    const EndpointIndex& index) {
    std::vector<Candidate> candidates;
    if (socket.listening || !socket.hasRemote || (socket.connectFailed && !socket.decorated)) {
        return candidates;
    }
    // The remote end is the server for a connecting socket, the client for an accepted one; with
    // -yy both ends are known and either can be.
    if (const auto* asServer = index.servers(socket.remote)) {
        for (uint32_t id : *asServer) {
            if (!socket.hasLocal || connections[id].client == socket.local) {
                candidates.push_back({id, Side::Client, socket.decorated ? SocketMatch::Decoration : SocketMatch::Connect});
            }
        }
    }
    if (const auto* asClient = index.clients(socket.remote)) {
        for (uint32_t id : *asClient) {
            if (!socket.hasLocal || connections[id].server == socket.local) {
                candidates.push_back({id, Side::Server, socket.decorated ? SocketMatch::Decoration : SocketMatch::Accept});
            }
        }
    }
    if (!socket.hasLocal) {
        // Without the local end, the way the socket was made says which side it was.
        std::erase_if(candidates, [&socket](const Candidate& c) {
            return (c.side == Side::Client) != socket.connectCalled && !socket.acceptedHere;
        });
        std::erase_if(candidates, [&socket](const Candidate& c) { return socket.acceptedHere && c.side != Side::Server; });
    }
    return candidates;
}

// How far apart in time a socket's life and a connection's life are (0 when they overlap).
int64_t distanceNs(const TracedSocket& socket, const Connection& connection, int64_t offsetNs) {
    const int64_t open = onCaptureClock(socket.openTsNs, offsetNs);
    const int64_t close = socket.closeTsNs == INT64_MAX ? INT64_MAX : onCaptureClock(socket.closeTsNs, offsetNs);
    if (close < connection.firstTsNs) {
        return connection.firstTsNs - close;
    }
    if (open > connection.lastTsNs) {
        return open - connection.lastTsNs;
    }
    return 0;
}

}  // namespace

std::vector<int64_t> handshakeOffsetSamples(const std::vector<TracedSocket>& sockets,
                                            const ConnectionStore& connections, int64_t logToCaptureNs) {
    const EndpointIndex index(connections);
    std::vector<int64_t> samples;
    for (const TracedSocket& socket : sockets) {
        if (!socket.seenFromStart) {
            continue;
        }
        for (const Candidate& candidate : candidatesOf(socket, connections, index)) {
            const Connection& c = connections[candidate.connection];
            // A connecting socket's first call comes just before the SYN; an accepted one just after the handshake.
            samples.push_back(c.firstTsNs - onCaptureClock(socket.openTsNs, logToCaptureNs));
        }
    }
    return samples;
}

void matchSocketsToConnections(std::vector<TracedSocket>& sockets, const ConnectionStore& connections,
                               const std::vector<int64_t>& logToCaptureNs) {
    const EndpointIndex index(connections);
    for (TracedSocket& socket : sockets) {
        const int64_t offset = logToCaptureNs[socket.log];
        int64_t best = std::numeric_limits<int64_t>::max();
        int64_t bestStart = best;
        for (const Candidate& candidate : candidatesOf(socket, connections, index)) {
            const Connection& c = connections[candidate.connection];
            const int64_t distance = distanceNs(socket, c, offset);
            const int64_t startGap = std::abs(c.firstTsNs - onCaptureClock(socket.openTsNs, offset));
            if (distance < best || (distance == best && startGap < bestStart)) {
                best = distance;
                bestStart = startGap;
                socket.connection = candidate.connection;
                socket.side = candidate.side;
                socket.match = candidate.match;
            }
        }
        if (best > kMaxDistanceNs) {
            socket.connection = kNoConnection;
            socket.match = SocketMatch::None;
        }
    }
}

}  // namespace tcpscope
