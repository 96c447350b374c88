#include <catch2/catch.hpp>

#include <array>

#include "tcp/connection_table.hpp"

using namespace tcpscope;

namespace {

Endpoint v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port) {
    const std::array<uint8_t, 4> bytes{a, b, c, d};
    return Endpoint{IpAddress::fromV4(bytes.data()), port};
}

Endpoint v6(uint8_t last, uint16_t port) {
    std::array<uint8_t, 16> bytes{0x20, 0x01, 0x0d, 0xb8};
    bytes[15] = last;
    return Endpoint{IpAddress::fromV6(bytes.data()), port};
}

// The side FlowKey (the tuple's canonical order, used for IPv6 and by Connection::clientIsLow) gives.
bool flowKeySourceIsLow(const Endpoint& source, const Endpoint& destination) {
    bool sourceIsLow = false;
    (void)FlowKey::fromSegment(source, destination, sourceIsLow);
    return sourceIsLow;
}

}  // namespace

TEST_CASE("tuples are numbered in order of first sight, both directions alike, IPv4 and IPv6 in one sequence",
          "[tcp]") {
    TupleNumbering numbering;
    const Endpoint client = v4(10, 0, 0, 1, 40000);
    const Endpoint server = v4(10, 0, 0, 2, 80);
    const TupleRef first = numbering.number(client, server);
    CHECK(first.tuple == 0);
    CHECK(first.sourceIsLow);
    const TupleRef reply = numbering.number(server, client);
    CHECK(reply.tuple == 0);
    CHECK_FALSE(reply.sourceIsLow);

    CHECK(numbering.number(v6(1, 5000), v6(2, 443)).tuple == 1);
    CHECK(numbering.number(v4(10, 0, 0, 1, 40001), server).tuple == 2);
    CHECK(numbering.number(v6(2, 443), v6(1, 5000)).tuple == 1);
    CHECK(numbering.number(server, v4(10, 0, 0, 1, 40001)).tuple == 2);
    CHECK(numbering.size() == 3);
}

TEST_CASE("an IPv4 tuple's side follows the order of addresses, then ports, as FlowKey's", "[tcp]") {
    // Addresses that order differently as bytes than as little-endian words, equal addresses with
    // the ports deciding, the high bit set, and a tuple from an endpoint to itself.
    const std::array<std::array<Endpoint, 2>, 6> pairs{{
        {v4(10, 0, 0, 2, 80), v4(10, 0, 0, 1, 40000)},
        {v4(1, 2, 3, 4, 9), v4(4, 3, 2, 1, 9)},
        {v4(192, 168, 1, 1, 80), v4(192, 168, 1, 1, 8080)},
        {v4(192, 168, 1, 1, 8080), v4(192, 168, 1, 1, 80)},
        {v4(255, 0, 0, 1, 65535), v4(127, 255, 255, 255, 0)},
        {v4(10, 0, 0, 1, 7), v4(10, 0, 0, 1, 7)},
    }};
    TupleNumbering numbering;
    for (const auto& [source, destination] : pairs) {
        INFO(source.toString() << " -> " << destination.toString());
        CHECK(numbering.number(source, destination).sourceIsLow == flowKeySourceIsLow(source, destination));
        CHECK(numbering.number(destination, source).sourceIsLow == flowKeySourceIsLow(destination, source));
    }
    CHECK(numbering.size() == 5);  // the two pairs on 192.168.1.1 are one tuple
}

TEST_CASE("an IPv4-mapped IPv6 address is the same tuple as the IPv4 address", "[tcp]") {
    TupleNumbering numbering;
    const std::array<uint8_t, 16> mapped{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1};
    const TupleRef asV4 = numbering.number(v4(10, 0, 0, 1, 40000), v4(10, 0, 0, 2, 80));
    const TupleRef asV6 = numbering.number(v4(10, 0, 0, 2, 80), Endpoint{IpAddress::fromV6(mapped.data()), 40000});
    CHECK(asV6.tuple == asV4.tuple);
    CHECK(asV6.sourceIsLow != asV4.sourceIsLow);
    // A mapped address beside a plain IPv6 one is an IPv6 tuple, numbered next.
    CHECK(numbering.number(Endpoint{IpAddress::fromV6(mapped.data()), 1}, v6(1, 2)).tuple == 1);
}
