#include "incident/connection_groups.hpp"

namespace tcpscope {

template <typename Key>
std::span<const uint32_t> ConnectionGroups::Grouping<Key>::of(const Key& key) const {
    const auto found = runs.find(key);
    if (found == runs.end()) {
        return {};
    }
    return std::span<const uint32_t>(ids).subspan(found->second.first, found->second.second);
}

// Counts each group, lays the groups out one after another, then fills them in id order.
template <typename Key, typename KeyOf>
ConnectionGroups::Grouping<Key> ConnectionGroups::group(const ConnectionStore& connections, KeyOf keyOf) {
    Grouping<Key> grouping;
    for (size_t id = 0; id < connections.size(); ++id) {
        ++grouping.runs[keyOf(connections[id])].second;
    }
    uint32_t start = 0;
    for (auto& [key, run] : grouping.runs) {
        run.first = start;
        start += run.second;
        run.second = 0;
    }
    grouping.ids.resize(connections.size());
    for (size_t id = 0; id < connections.size(); ++id) {
        auto& run = grouping.runs.find(keyOf(connections[id]))->second;
        grouping.ids[run.first + run.second] = static_cast<uint32_t>(id);
        ++run.second;
    }
    return grouping;
}

ConnectionGroups::ConnectionGroups(const ConnectionStore& connections)
    : byServer_(group<Endpoint>(connections, [](const Connection& c) { return c.server; })),
      byServerHost_(group<IpAddress>(connections, [](const Connection& c) { return c.server.address; })),
      byClientHost_(group<IpAddress>(connections, [](const Connection& c) { return c.client.address; })) {}

std::span<const uint32_t> ConnectionGroups::toServer(const Endpoint& server) const {
    return byServer_.of(server);
}

std::span<const uint32_t> ConnectionGroups::toServerHost(const IpAddress& host) const {
    return byServerHost_.of(host);
}

std::span<const uint32_t> ConnectionGroups::fromClientHost(const IpAddress& host) const {
    return byClientHost_.of(host);
}

}  // namespace tcpscope
