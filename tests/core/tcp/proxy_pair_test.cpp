// Finding the two connections of a proxy: the server side of one and the client side of the
// other share an address, and their data takes turns.
#include "tcp/proxy_pair.hpp"

#include <catch2/catch.hpp>

#include "support/sequence_capture.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

TEST_CASE("a proxy's two connections are found from either side", "[proxy]") {
    const CaptureAnalysis analysis = analyzeBuilt(proxyConversation(3));
    const auto& connections = analysis.engine->connections();
    REQUIRE(connections.size() == 3);
    REQUIRE(connections[2].client.toString() == "10.0.0.2:50001");

    const auto fromClientSide = findProxyPartner(connections, analysis.engine->packets(), 0);
    REQUIRE(fromClientSide.has_value());
    CHECK(fromClientSide->clientSide == 0);
    CHECK(fromClientSide->serverSide == 1);
    CHECK(fromClientSide->interleavings >= 6);

    const auto fromServerSide = findProxyPartner(connections, analysis.engine->packets(), 1);
    REQUIRE(fromServerSide.has_value());
    CHECK(fromServerSide->clientSide == 0);
    CHECK(fromServerSide->serverSide == 1);
}

TEST_CASE("a connection from the same host whose data never takes turns is no partner", "[proxy]") {
    const CaptureAnalysis analysis = analyzeBuilt(proxyConversation(3));
    // Connection 2 leaves the proxy's address during connection 0's life, but talks only once, after.
    const auto partner = findProxyPartner(analysis.engine->connections(), analysis.engine->packets(), 2);
    CHECK_FALSE(partner.has_value());
    const auto single = analyzeBuilt(nagleConversation());
    CHECK_FALSE(findProxyPartner(single.engine->connections(), single.engine->packets(), 0).has_value());
    CHECK_FALSE(findProxyPartner(single.engine->connections(), single.engine->packets(), 7).has_value());
}

TEST_CASE("the proxy sample pairs client->proxy:3307 with proxy->backend:3306", "[proxy][sample]") {
    const CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/proxy-nagle.pcap"}, {});
    for (const uint32_t start : {0u, 1u}) {
        const auto pair = findProxyPartner(analysis.engine->connections(), analysis.engine->packets(), start);
        REQUIRE(pair.has_value());
        CHECK(pair->clientSide == 0);
        CHECK(pair->serverSide == 1);
        CHECK(pair->interleavings >= 39);
    }
    // Without the proxy: nothing to pair.
    const CaptureAnalysis alone = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/http-keepalive.pcap"}, {});
    for (uint32_t id = 0; id < alone.engine->connections().size() && id < 20; ++id) {
        const auto pair = findProxyPartner(alone.engine->connections(), alone.engine->packets(), id);
        CHECK_FALSE(pair.has_value());
    }
}
