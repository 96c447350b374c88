// The connections grouped by their parties: each group is exactly the connections of its key, in id
// order, on a recording of tens of thousands of connections.
#include "incident/connection_groups.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <vector>

#include "investigation/investigation.hpp"

using namespace tcpscope;

namespace {

// The groups `groupOf` gives against the ones a plain walk over every connection finds.
template <typename KeyOf, typename GroupOf>
void checkGrouping(const ConnectionStore& connections, KeyOf keyOf, GroupOf groupOf) {
    std::map<decltype(keyOf(connections[0])), std::vector<uint32_t>> expected;
    for (size_t id = 0; id < connections.size(); ++id) {
        expected[keyOf(connections[id])].push_back(static_cast<uint32_t>(id));
    }
    for (const auto& [key, ids] : expected) {
        const std::span<const uint32_t> group = groupOf(key);
        CHECK(std::vector<uint32_t>(group.begin(), group.end()) == ids);
    }
}

}  // namespace

TEST_CASE("connection groups hold each server's and each host's connections in id order", "[incident][groups]") {
    InvestigationInputs inputs;
    inputs.captures = {
        (std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / "seeds" / "jobs-port-exhaustion.pcap.gz").string()};
    const Investigation investigation = investigate(inputs);
    REQUIRE(investigation.analysis.engine);
    const ConnectionStore& connections = investigation.analysis.engine->connections();
    REQUIRE(connections.size() > 10000);
    const ConnectionGroups groups(connections);

    checkGrouping(
        connections, [](const Connection& c) { return c.server; },
        [&](const Endpoint& key) { return groups.toServer(key); });
    checkGrouping(
        connections, [](const Connection& c) { return c.server.address; },
        [&](const IpAddress& key) { return groups.toServerHost(key); });
    checkGrouping(
        connections, [](const Connection& c) { return c.client.address; },
        [&](const IpAddress& key) { return groups.fromClientHost(key); });
    CHECK(groups.toServer(Endpoint{}).empty());
}
