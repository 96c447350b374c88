#include "incident/port_pool_figures.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <array>

namespace tcpscope {

namespace {

constexpr double kNsPerS = 1e9;
// Ports used fill a range when they are at least this share of it: a client whose range is full may
// still find a port or two free, and a capture may begin after the first connections.
constexpr double kFilledShare = 0.99;
// A pause is a stretch without a new connection of at least a second, and ten times the usual gap.
constexpr int64_t kMinPauseNs = 1'000'000'000;
constexpr int64_t kPauseOverMedianGap = 10;

struct PoolConnection {
    int64_t synNs = 0;
    uint32_t frame = 0;
    IpAddress client;
    uint16_t port = 0;
};

bool fills(uint16_t lowest, uint16_t highest, uint32_t ports, uint16_t low, uint16_t high) {
    const uint32_t rangePorts = static_cast<uint32_t>(high) - low + 1;
    return lowest >= low && highest <= high && static_cast<double>(ports) >= kFilledShare * rangePorts;
}

// Of `pool` (in time order), the index of the last connection before the longest gap that counts as a
// pause, and the distinct ports used up to it.
std::optional<size_t> pauseAfter(const std::vector<PoolConnection>& pool, const PortRange& range) {
    if (pool.size() < 3) {
        return std::nullopt;
    }
    std::vector<int64_t> gaps;
    gaps.reserve(pool.size() - 1);
    size_t longest = 0;
    for (size_t index = 0; index + 1 < pool.size(); ++index) {
        gaps.push_back(pool[index + 1].synNs - pool[index].synNs);
        if (gaps.back() > gaps[longest]) {
            longest = index;
        }
    }
    std::vector<int64_t> sorted = gaps;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    const int64_t medianGap = sorted[sorted.size() / 2];
    if (gaps[longest] < kMinPauseNs || gaps[longest] < kPauseOverMedianGap * medianGap) {
        return std::nullopt;
    }
    absl::flat_hash_map<IpAddress, absl::flat_hash_set<uint16_t>> portsBefore;
    uint32_t most = 0;
    for (size_t index = 0; index <= longest; ++index) {
        auto& ports = portsBefore[pool[index].client];
        ports.insert(pool[index].port);
        most = std::max(most, static_cast<uint32_t>(ports.size()));
    }
    if (static_cast<double>(most) < kFilledShare * range.ports()) {
        return std::nullopt;
    }
    return longest;
}

}  // namespace

PortRange inferPortRange(uint16_t lowest, uint16_t highest, uint32_t mostPortsOfOneClient,
                         const DetectorOptions& options) {
    if (options.portRangeGiven) {
        return {options.portRangeLow, options.portRangeHigh, PortRangeSource::Given};
    }
    const std::array<std::pair<uint16_t, uint16_t>, 3> known = {
        {{options.portRangeLow, options.portRangeHigh}, {32768, 60999}, {49152, 65535}}};
    for (const auto& [low, high] : known) {
        if (fills(lowest, highest, mostPortsOfOneClient, low, high)) {
            return {low, high, PortRangeSource::Filled};
        }
    }
    return {lowest, highest, PortRangeSource::Observed};
}

PortPoolFigures measurePortPool(const ConnectionStore& connections, const ConnectionGroups& groups,
                                const Endpoint& server, const DetectorOptions& options) {
    PortPoolFigures figures;
    figures.timeWaitS = options.timeWaitSeconds;
    std::vector<PoolConnection> pool;
    absl::flat_hash_map<IpAddress, absl::flat_hash_set<uint16_t>> portsOfClient;
    uint16_t lowest = UINT16_MAX;
    uint16_t highest = 0;
    for (const uint32_t id : groups.toServer(server)) {
        const Connection& connection = connections[id];
        if (connection.midstream) {
            continue;
        }
        pool.push_back(
            {connection.firstTsNs, connection.firstFrame, connection.client.address, connection.client.port});
        portsOfClient[connection.client.address].insert(connection.client.port);
        lowest = std::min(lowest, connection.client.port);
        highest = std::max(highest, connection.client.port);
        if (connection.hasActiveCloser && connection.activeCloser == Side::Client) {
            ++figures.clientClosedFirst;
        }
    }
    figures.connections = pool.size();
    if (pool.empty()) {
        return figures;
    }
    std::sort(pool.begin(), pool.end(), [](const PoolConnection& a, const PoolConnection& b) {
        return a.synNs != b.synNs ? a.synNs < b.synNs : a.frame < b.frame;
    });
    for (const auto& [client, ports] : portsOfClient) {
        figures.clients.push_back(client);
        figures.mostPortsOfOneClient = std::max(figures.mostPortsOfOneClient, static_cast<uint32_t>(ports.size()));
    }
    std::sort(figures.clients.begin(), figures.clients.end());
    if (pool.size() >= 2 && lowest == highest) {
        figures.fixedSourcePort = lowest;
    }
    figures.range = inferPortRange(lowest, highest, figures.mostPortsOfOneClient, options);
    figures.rateSustainablePerS = figures.timeWaitS > 0
                                      ? static_cast<double>(figures.range.ports()) *
                                            static_cast<double>(figures.clients.size()) / figures.timeWaitS
                                      : 0;
    figures.firstSynNs = pool.front().synNs;
    figures.lastSynNs = pool.back().synNs;
    figures.firstFrame = pool.front().frame;
    figures.lastFrame = pool.back().frame;

    if (const std::optional<size_t> last = pauseAfter(pool, figures.range)) {
        const PoolConnection& before = pool[*last];
        const PoolConnection& after = pool[*last + 1];
        figures.pause = PoolPause{before.synNs, after.synNs, before.frame, after.frame};
        figures.connectionsBeforeStop = *last + 1;
        figures.rateAchievedPerS = static_cast<double>(figures.connectionsBeforeStop) * kNsPerS /
                                   static_cast<double>(after.synNs - figures.firstSynNs);
        return figures;
    }
    const int64_t spanNs = figures.lastSynNs - figures.firstSynNs;
    figures.rateAchievedPerS =
        spanNs > 0 ? static_cast<double>(pool.size() - 1) * kNsPerS / static_cast<double>(spanNs) : 0;
    if (static_cast<double>(figures.mostPortsOfOneClient) >= kFilledShare * figures.range.ports() &&
        figures.range.source != PortRangeSource::Observed) {
        figures.endsOnFullRange = true;
        figures.connectionsBeforeStop = pool.size();
    }
    return figures;
}

}  // namespace tcpscope
