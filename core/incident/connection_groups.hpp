#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <span>
#include <vector>

#include "decode/ip_address.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// The connections of a capture grouped once by their parties, each group in id order. An incident's
/// figures are measured over the connections of its subject; walking a group instead of every
/// connection keeps the incidents linear in the capture (a capture with a thousand subjects would
/// otherwise walk its million connections a thousand times).
class ConnectionGroups {
public:
    explicit ConnectionGroups(const ConnectionStore& connections);

    /// The connections whose server is `server`.
    [[nodiscard]] std::span<const uint32_t> toServer(const Endpoint& server) const;
    /// The connections whose server's address is `host`.
    [[nodiscard]] std::span<const uint32_t> toServerHost(const IpAddress& host) const;
    /// The connections whose client's address is `host`.
    [[nodiscard]] std::span<const uint32_t> fromClientHost(const IpAddress& host) const;

private:
    // One grouping: the ids sorted by group, and where each group's run starts and ends.
    template <typename Key>
    struct Grouping {
        std::vector<uint32_t> ids;
        absl::flat_hash_map<Key, std::pair<uint32_t, uint32_t>> runs;  // first index into ids, count

        [[nodiscard]] std::span<const uint32_t> of(const Key& key) const;
    };
    template <typename Key, typename KeyOf>
    static Grouping<Key> group(const ConnectionStore& connections, KeyOf keyOf);

    Grouping<Endpoint> byServer_;
    Grouping<IpAddress> byServerHost_;
    Grouping<IpAddress> byClientHost_;
};

}  // namespace tcpscope
