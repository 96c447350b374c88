#include "incident/listener_figures.hpp"

#include <absl/container/flat_hash_set.h>

#include <algorithm>

#include "finding/finding_impact.hpp"

namespace tcpscope {

namespace {

constexpr double kNsPerS = 1e9;

double medianOf(std::vector<int64_t>& values) {
    if (values.empty()) {
        return 0;
    }
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return static_cast<double>(*middle);
}

}  // namespace

ListenerFigures measureListener(const ConnectionStore& connections, const ConnectionGroups& groups,
                                const Endpoint& listener) {
    ListenerFigures figures;
    WaitTally handshakes;
    WaitTally delayed;
    // The time of each connection's last SYN after its first, by how many it sent again.
    std::vector<std::vector<int64_t>> lastRetryNs;
    std::vector<uint64_t> reached;
    absl::flat_hash_set<IpAddress> clients;
    int64_t firstSynNs = INT64_MAX;
    int64_t lastAnsweredEndNs = INT64_MIN;
    for (const uint32_t id : groups.toServer(listener)) {
        const Connection& connection = connections[id];
        if (connection.midstream) {
            continue;
        }
        ++figures.connections;
        firstSynNs = std::min(firstSynNs, connection.firstTsNs);
        if (clients.size() < ListenerFigures::kMaxClients) {
            clients.insert(connection.client.address);
        }
        if (connection.synAckTsNs != kNoTime && connection.synAckTsNs >= connection.firstTsNs) {
            handshakes.add(connection.id, connection.firstTsNs, connection.synAckTsNs);
        }
        if (connection.from(Side::Server).payloadBytes > 0) {
            ++figures.connectionsAnswered;
            lastAnsweredEndNs = std::max(lastAnsweredEndNs, connection.lastTsNs);
        }
        if (connection.synCount < 2 || connection.synTsNs == kNoTime) {
            continue;
        }
        const uint32_t resent = connection.synCount - 1;
        ++figures.handshakesDelayed;
        figures.synsDropped += resent;
        if (lastRetryNs.size() < resent) {
            lastRetryNs.resize(resent);
            reached.resize(resent);
        }
        lastRetryNs[resent - 1].push_back(connection.synTsNs - connection.firstTsNs);
        for (uint32_t retry = 0; retry < resent; ++retry) {
            ++reached[retry];
        }
        const int64_t answeredNs = connection.synAckTsNs != kNoTime ? connection.synAckTsNs : connection.lastTsNs;
        delayed.add(connection.id, connection.firstTsNs, std::max(answeredNs, connection.firstTsNs));
        if (figures.firstDroppedFrame == 0 || connection.firstTsNs < figures.firstDroppedNs) {
            figures.firstDroppedNs = connection.firstTsNs;
            figures.firstDroppedFrame = connection.firstFrame;
        }
        figures.lastDelayedAnswerNs = std::max(figures.lastDelayedAnswerNs, answeredNs);
    }
    for (size_t retry = 0; retry < lastRetryNs.size(); ++retry) {
        if (lastRetryNs[retry].empty()) {
            continue;
        }
        figures.retries.push_back(
            {static_cast<uint32_t>(retry + 1), reached[retry], medianOf(lastRetryNs[retry]) / kNsPerS});
    }
    const FindingImpact all = handshakes.impact();
    figures.handshakeP50Ms = all.p50Ms;
    figures.handshakeP99Ms = all.p99Ms;
    figures.handshakeMaxMs = all.maxMs;
    figures.handshakeWallMs = delayed.impact().wallMs;
    if (figures.connectionsAnswered > 0 && lastAnsweredEndNs > firstSynNs) {
        figures.rateAnsweredPerS = static_cast<double>(figures.connectionsAnswered) * kNsPerS /
                                   static_cast<double>(lastAnsweredEndNs - firstSynNs);
    }
    figures.clients.assign(clients.begin(), clients.end());
    std::sort(figures.clients.begin(), figures.clients.end());
    return figures;
}

}  // namespace tcpscope
