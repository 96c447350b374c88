#include "tcp/proxy_pair.hpp"

#include <algorithm>
#include <cstdlib>

namespace tcpscope {

namespace {

constexpr size_t kMaxCandidates = 256;
// One request forwarded and its answer forwarded back: data went A, B, B, A.
constexpr uint32_t kMinInterleavings = 2;

struct Candidate {
    uint32_t id = kNoConnection;
    int64_t startDistanceNs = 0;
    bool candidateIsServerSide = true;  // the candidate is the proxy's connection to the server
    uint64_t lastDataTurn = 0;          // turn number of its last data packet, 0 = none yet
    uint32_t interleavings = 0;
};

}  // namespace

std::optional<ProxyPair> findProxyPartner(const ConnectionStore& connections, const PacketIndex& packets,
                                          uint32_t connection, const SameHost& sameHost) {
    if (connection >= connections.size()) {
        return std::nullopt;
    }
    const auto oneHost = [&sameHost](const IpAddress& a, const IpAddress& b) {
        return a == b || (sameHost && sameHost(a, b));
    };
    const Connection& self = connections[connection];
    std::vector<Candidate> candidates;
    for (const Connection& other : connections) {
        if (other.id == connection) {
            continue;
        }
        // `self` reaches the proxy, which then connects onwards from the same address ...
        const bool onwards = oneHost(other.client.address, self.server.address) && other.server != self.server &&
                             other.server != self.client && other.firstTsNs >= self.firstTsNs &&
                             other.firstTsNs <= self.lastTsNs;
        // ... or `self` leaves the proxy, which was reached by `other` on the same address.
        const bool backwards = oneHost(other.server.address, self.client.address) && other.server != self.server &&
                               other.client != self.server && self.firstTsNs >= other.firstTsNs &&
                               self.firstTsNs <= other.lastTsNs;
        if (onwards || backwards) {
            candidates.push_back({other.id, std::llabs(other.firstTsNs - self.firstTsNs), onwards});
        }
    }
    if (candidates.empty()) {
        return std::nullopt;
    }
    if (candidates.size() > kMaxCandidates) {
        std::nth_element(candidates.begin(), candidates.begin() + kMaxCandidates, candidates.end(),
                         [](const Candidate& a, const Candidate& b) { return a.startDistanceNs < b.startDistanceNs; });
        candidates.resize(kMaxCandidates);
    }
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.id < b.id; });

    // Data packets are numbered in turn; a candidate's data interleaves with `self`'s when
    // `self` sent data between two of the candidate's data packets (counted once each way).
    uint64_t turn = 0;
    uint64_t lastSelfTurn = 0;
    for (size_t position = packets.firstAtOrAfterFrame(self.firstFrame); position < packets.size(); ++position) {
        const IndexedPacket packet = packets.at(position);
        if (packet.frame > self.lastFrame) {
            break;
        }
        if (packet.payloadLength == 0) {
            continue;
        }
        ++turn;
        if (packet.connection == connection) {
            lastSelfTurn = turn;
            continue;
        }
        const auto found = std::lower_bound(candidates.begin(), candidates.end(), packet.connection,
                                            [](const Candidate& c, uint32_t id) { return c.id < id; });
        if (found == candidates.end() || found->id != packet.connection) {
            continue;
        }
        if (lastSelfTurn > found->lastDataTurn) {
            found->interleavings += found->lastDataTurn == 0 ? 1 : 2;
        }
        found->lastDataTurn = turn;
    }
    const Candidate* best = nullptr;
    for (Candidate& candidate : candidates) {
        if (candidate.lastDataTurn != 0 && lastSelfTurn > candidate.lastDataTurn) {
            ++candidate.interleavings;  // `self` answered after the candidate's last data
        }
        if (candidate.interleavings < kMinInterleavings) {
            continue;
        }
        if (best == nullptr || candidate.interleavings > best->interleavings ||
            (candidate.interleavings == best->interleavings && candidate.startDistanceNs < best->startDistanceNs)) {
            best = &candidate;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    return best->candidateIsServerSide ? ProxyPair{connection, best->id, best->interleavings}
                                       : ProxyPair{best->id, connection, best->interleavings};
}

}  // namespace tcpscope
