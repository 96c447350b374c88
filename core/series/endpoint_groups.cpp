#include "series/endpoint_groups.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

namespace tcpscope {

std::string_view populationStateLabel(PopulationState state) {
    switch (state) {
        case PopulationState::SynWait: return "waiting on a SYN";
        case PopulationState::Open: return "open";
        case PopulationState::Stalled: return "stalled";
        case PopulationState::TimeWait: return "TIME_WAIT";
    }
    return "open";
}

ConnectionLife connectionLife(const Connection& connection, int64_t timeWaitNs) {
    ConnectionLife life;
    life.startNs = connection.firstTsNs;
    const int64_t lastNs = std::max(connection.lastTsNs, connection.firstTsNs);
    // The handshake is done when the client acknowledged the SYN-ACK; without that ACK in the
    // capture, when the SYN-ACK came; a connection seen midstream never waited.
    if (connection.midstream || !connection.from(Side::Client).sawSyn) {
        life.establishedNs = life.startNs;
    } else if (connection.handshakeAckTsNs != kNoTime) {
        life.establishedNs = connection.handshakeAckTsNs;
    } else if (connection.synAckTsNs != kNoTime) {
        life.establishedNs = connection.synAckTsNs;
    } else {
        life.establishedNs = lastNs;  // never answered: it waited until its last SYN
    }
    life.establishedNs = std::clamp(life.establishedNs, life.startNs, lastNs);
    const bool closed = connection.closeTsNs != kNoTime;
    life.closedNs = std::clamp(closed ? connection.closeTsNs : lastNs, life.establishedNs, lastNs);
    const bool timeWait = connection.state == ConnectionState::Closed && connection.hasActiveCloser;
    life.timeWaitEndNs = timeWait ? life.closedNs + std::max<int64_t>(timeWaitNs, 0) : life.closedNs;
    return life;
}

std::vector<ConnectionLife> connectionLives(const ConnectionStore& connections, int64_t timeWaitNs) {
    std::vector<ConnectionLife> lives;
    lives.reserve(connections.size());
    for (size_t id = 0; id < connections.size(); ++id) {
        lives.push_back(connectionLife(connections[id], timeWaitNs));
    }
    for (size_t id = 0; id < connections.size(); ++id) {
        const Connection& later = connections[id];
        if (later.reusedFrom >= lives.size() || later.synAckTsNs == kNoTime || later.synTsNs == kNoTime) {
            continue;  // not a new generation of a tuple, or its SYN was never accepted
        }
        // The SYN that was answered (a retried SYN moves synTsNs): after a collision, the earlier
        // generation's TIME_WAIT went with the RST just before it.
        ConnectionLife& earlier = lives[later.reusedFrom];
        earlier.timeWaitEndNs = std::min(earlier.timeWaitEndNs, std::max(later.synTsNs, earlier.closedNs));
    }
    return lives;
}

std::vector<EndpointGroup> endpointGroups(std::span<const uint32_t> order, const EndpointsOf& endpointsOf) {
    std::vector<EndpointGroup> groups;
    absl::flat_hash_map<std::pair<IpAddress, Endpoint>, size_t> byKey;
    for (const uint32_t id : order) {
        auto key = endpointsOf(id);
        const auto [slot, isNew] = byKey.try_emplace(key, groups.size());
        if (isNew) {
            groups.push_back({key.first, key.second, {}});
        }
        groups[slot->second].connections.push_back(id);
    }
    return groups;
}

std::vector<EndpointGroup> endpointGroups(const ConnectionStore& connections, std::span<const uint32_t> order) {
    std::vector<uint32_t> known;
    known.reserve(order.size());
    std::copy_if(order.begin(), order.end(), std::back_inserter(known),
                 [&connections](uint32_t id) { return id < connections.size(); });
    return endpointGroups(known, [&connections](uint32_t id) {
        return std::pair{connections[id].client.address, connections[id].server};
    });
}

DensityGrid::DensityGrid(int64_t fromNs, double nsPerColumn, size_t columns)
    : fromNs_(fromNs), nsPerColumn_(std::max(nsPerColumn, 1e-3)), columns_(columns) {
    for (std::vector<int32_t>& steps : steps_) {
        steps.assign(columns_ + 1, 0);
    }
}

void DensityGrid::add(PopulationState state, int64_t startNs, int64_t endNs) {
    if (columns_ == 0 || endNs < startNs) {
        return;
    }
    const double first = std::floor(static_cast<double>(startNs - fromNs_) / nsPerColumn_);
    const double last = std::floor(static_cast<double>(endNs - fromNs_) / nsPerColumn_);
    const auto columnCount = static_cast<double>(columns_);
    if (last < 0 || first >= columnCount) {
        return;
    }
    std::vector<int32_t>& steps = steps_[static_cast<size_t>(state)];
    ++steps[static_cast<size_t>(std::max(first, 0.0))];
    --steps[static_cast<size_t>(std::min(last, columnCount - 1)) + 1];
}

void DensityGrid::addLife(const ConnectionLife& life, int64_t endNs) {
    if (life.establishedNs > life.startNs) {
        add(PopulationState::SynWait, life.startNs, life.establishedNs);
    }
    add(PopulationState::Open, life.establishedNs, life.closedNs);
    if (life.timeWaitEndNs > life.closedNs && life.closedNs < endNs) {
        add(PopulationState::TimeWait, life.closedNs, std::min(life.timeWaitEndNs, endNs));
    }
}

std::vector<uint32_t> DensityGrid::counts(PopulationState state) const {
    const std::vector<int32_t>& steps = steps_[static_cast<size_t>(state)];
    std::vector<uint32_t> counts(columns_);
    int64_t running = 0;
    for (size_t column = 0; column < columns_; ++column) {
        running += steps[column];
        counts[column] = static_cast<uint32_t>(std::max<int64_t>(running, 0));
    }
    return counts;
}

namespace {

// The highest number of [start, end) stretches open at one instant; a stretch that begins when
// another ends follows it rather than overlapping it.
uint32_t highestOverlap(std::vector<std::pair<int64_t, int>>& changes) {
    std::sort(changes.begin(), changes.end());  // at equal times the ends (-1) come first
    int64_t running = 0;
    int64_t highest = 0;
    for (const auto& [tsNs, delta] : changes) {
        running += delta;
        highest = std::max(highest, running);
    }
    return static_cast<uint32_t>(highest);
}

}  // namespace

std::array<uint32_t, kPopulationStateCount> peakPopulation(std::span<const ConnectionLife> lives,
                                                           std::span<const StallStretch> stalls, int64_t endNs) {
    std::array<std::vector<std::pair<int64_t, int>>, kPopulationStateCount> changes;
    const auto stretch = [&changes](PopulationState state, int64_t startNs, int64_t stopNs) {
        auto& list = changes[static_cast<size_t>(state)];
        list.emplace_back(startNs, 1);
        list.emplace_back(std::max(stopNs, startNs + 1), -1);  // an instant still counts once
    };
    for (const ConnectionLife& life : lives) {
        if (life.establishedNs > life.startNs) {
            stretch(PopulationState::SynWait, life.startNs, life.establishedNs);
        }
        stretch(PopulationState::Open, life.establishedNs, life.closedNs);
        if (life.timeWaitEndNs > life.closedNs && life.closedNs < endNs) {
            stretch(PopulationState::TimeWait, life.closedNs, std::min(life.timeWaitEndNs, endNs));
        }
    }
    for (const StallStretch& stall : stalls) {
        stretch(PopulationState::Stalled, stall.startNs, stall.endNs);
    }
    std::array<uint32_t, kPopulationStateCount> peaks{};
    for (size_t state = 0; state < kPopulationStateCount; ++state) {
        peaks[state] = highestOverlap(changes[state]);
    }
    return peaks;
}

}  // namespace tcpscope
