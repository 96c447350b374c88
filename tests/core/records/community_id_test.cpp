// The Community ID against the vectors of the spec's repository (corelight/community-id-spec,
// baseline/baseline_deflt.json and baseline_seed1.json): the hash Zeek, Suricata and Arkime compute.
#include "records/community_id.hpp"

#include <arpa/inet.h>

#include <catch2/catch.hpp>
#include <string>

namespace {

using tcpscope::Endpoint;
using tcpscope::IpAddress;

Endpoint endpoint(const std::string& text, uint16_t port) {
    Endpoint result;
    result.port = port;
    uint8_t bytes[16] = {};
    if (inet_pton(AF_INET, text.c_str(), bytes) == 1) {
        result.address = IpAddress::fromV4(bytes);
    } else {
        REQUIRE(inet_pton(AF_INET6, text.c_str(), bytes) == 1);
        result.address = IpAddress::fromV6(bytes);
    }
    return result;
}

struct Vector {
    uint8_t protocol;
    const char* saddr;
    uint16_t sport;
    const char* daddr;
    uint16_t dport;
    uint16_t seed;
    const char* id;
};

}  // namespace

TEST_CASE("Community ID v1 matches the spec's baseline vectors in both directions", "[records][community_id]") {
    const Vector vectors[] = {
        {6, "128.232.110.120", 34855, "66.35.250.204", 80, 0, "1:LQU9qZlK+B5F3KDmev6m5PMibrg="},
        {6, "2001:470:e5bf:dead:4957:2174:e82c:4887", 63943, "2607:f8b0:400c:c03::1a", 25, 0,
         "1:/qFaeAR+gFe1KYjMzVDsMv+wgU4="},
        {17, "192.168.1.52", 54585, "8.8.8.8", 53, 0, "1:d/FP5EW3wiY1vCndhwleRRKHowQ="},
        {132, "192.168.170.8", 7, "192.168.170.56", 7, 0, "1:MP2EtRCAUIZvTw6MxJHLV7N7JDs="},
        {6, "128.232.110.120", 34855, "66.35.250.204", 80, 1, "1:3V71V58M3Ksw/yuFALMcW0LAHvc="},
        {6, "2001:470:e5bf:dead:4957:2174:e82c:4887", 63943, "2607:f8b0:400c:c03::1a", 25, 1,
         "1:eJYTW6AOzFLlSUoESovMjnu7rMw="},
        {17, "192.168.1.52", 54585, "8.8.8.8", 53, 1, "1:Q9We8WO3piVF8yEQBNJF4uiSVrI="},
    };
    for (const Vector& vector : vectors) {
        INFO(vector.saddr << ":" << vector.sport << " -> " << vector.daddr << ":" << vector.dport << " proto "
                          << int{vector.protocol} << " seed " << vector.seed);
        const Endpoint source = endpoint(vector.saddr, vector.sport);
        const Endpoint destination = endpoint(vector.daddr, vector.dport);
        CHECK(tcpscope::communityIdV1(source, destination, vector.protocol, vector.seed) == vector.id);
        CHECK(tcpscope::communityIdV1(destination, source, vector.protocol, vector.seed) == vector.id);
    }
}

TEST_CASE("Community ID of equal addresses is ordered by port", "[records][community_id]") {
    // Loopback flows (every sample) have equal addresses: the ports decide, in either direction.
    const Endpoint client = endpoint("127.0.0.1", 40000);
    const Endpoint server = endpoint("127.0.0.1", 9000);
    CHECK(tcpscope::communityIdV1(client, server) == tcpscope::communityIdV1(server, client));
    CHECK(tcpscope::communityIdV1(client, server) != tcpscope::communityIdV1(client, endpoint("127.0.0.1", 9001)));
}
