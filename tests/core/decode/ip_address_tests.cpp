#include <catch2/catch.hpp>

#include <arpa/inet.h>

#include "decode/ip_address.hpp"

using tcpscope::Endpoint;
using tcpscope::IpAddress;

namespace {

IpAddress v6(const char* text) {
    std::array<uint8_t, 16> bytes{};
    REQUIRE(inet_pton(AF_INET6, text, bytes.data()) == 1);
    return IpAddress::fromV6(bytes.data());
}

IpAddress v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
    const uint8_t bytes[4] = {a, b, c, d};
    return IpAddress::fromV4(bytes);
}

}  // namespace

TEST_CASE("IPv4 addresses are stored IPv4-mapped and printed dotted", "[decode][address]") {
    const IpAddress address = v4(192, 0, 2, 1);
    CHECK(address.isV4());
    CHECK(address.bytes == std::array<uint8_t, 16>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 192, 0, 2, 1});
    CHECK(address.toString() == "192.0.2.1");
    CHECK(v4(0, 0, 0, 0).toString() == "0.0.0.0");
    CHECK(v4(255, 255, 255, 255).toString() == "255.255.255.255");
    // The mapped IPv6 spelling is the same address.
    CHECK(v6("::ffff:192.0.2.1") == address);
}

TEST_CASE("IPv6 addresses print in RFC 5952 form", "[decode][address]") {
    CHECK_FALSE(v6("2001:db8::1").isV4());
    CHECK(v6("2001:0DB8:0000:0000:0000:0000:0000:0001").toString() == "2001:db8::1");
    // The first of two equally long zero runs is the one shortened.
    CHECK(v6("2001:db8:0:0:1:0:0:1").toString() == "2001:db8::1:0:0:1");
    // The longest run wins over an earlier shorter one.
    CHECK(v6("2001:0:0:1:0:0:0:1").toString() == "2001:0:0:1::1");
    // A single zero group is not shortened to "::".
    CHECK(v6("2001:db8:0:1:1:1:1:1").toString() == "2001:db8:0:1:1:1:1:1");
    CHECK(v6("::").toString() == "::");
    CHECK(v6("::1").toString() == "::1");
    CHECK(v6("fe80::a:b").toString() == "fe80::a:b");
    CHECK(v6("2001:db8::").toString() == "2001:db8::");
}

TEST_CASE("endpoints print as address:port, IPv6 in brackets", "[decode][address]") {
    CHECK(Endpoint{v4(10, 0, 0, 1), 80}.toString() == "10.0.0.1:80");
    CHECK(Endpoint{v6("2001:db8::1"), 443}.toString() == "[2001:db8::1]:443");
    CHECK(Endpoint{v6("::"), 0}.toString() == "[::]:0");
}

TEST_CASE("addresses and endpoints order and compare by value", "[decode][address]") {
    CHECK(v4(10, 0, 0, 1) < v4(10, 0, 0, 2));
    CHECK(v4(10, 0, 0, 1) == v4(10, 0, 0, 1));
    CHECK(Endpoint{v4(10, 0, 0, 1), 80} < Endpoint{v4(10, 0, 0, 1), 81});
    CHECK(Endpoint{v4(10, 0, 0, 1), 80} != Endpoint{v6("2001:db8::1"), 80});
}

TEST_CASE("addresses order exactly as their bytes do", "[decode][address]") {
    // Pairs that differ in one byte, in each of the 16 positions, both ways: the word-wise compare
    // must agree with a byte-wise one (the order of flows and of host lists depends on it).
    constexpr std::array<std::pair<uint8_t, uint8_t>, 3> kLowHigh{{{0x00, 0x01}, {0x7f, 0x80}, {0x01, 0xff}}};
    for (size_t position = 0; position < 16; ++position) {
        for (const auto& [low, high] : kLowHigh) {
            std::array<uint8_t, 16> a{};
            a.fill(0x55);
            std::array<uint8_t, 16> b = a;
            a[position] = low;
            b[position] = high;
            // A later byte that orders the other way must not matter.
            if (position < 15) {
                a[15] = 0xff;
                b[15] = 0x00;
            }
            const IpAddress first = IpAddress::fromV6(a.data());
            const IpAddress second = IpAddress::fromV6(b.data());
            CAPTURE(position, int{low}, int{high});
            CHECK(first < second);
            CHECK(second > first);
            CHECK(first != second);
            CHECK((first <=> second) == (a <=> b));
            CHECK(first == IpAddress::fromV6(a.data()));
        }
    }
}

TEST_CASE("addresses print as inet_ntop prints them", "[decode][address]") {
    // IPv4 is formatted without inet_ntop: compare with it over octets of 1, 2 and 3 digits.
    for (const uint8_t octet : {0, 7, 9, 10, 42, 99, 100, 199, 200, 255}) {
        const uint8_t bytes[4] = {octet, uint8_t(255 - octet), 1, octet};
        char expected[INET_ADDRSTRLEN] = {};
        REQUIRE(inet_ntop(AF_INET, bytes, expected, sizeof expected) != nullptr);
        const IpAddress address = IpAddress::fromV4(bytes);
        CHECK(address.toString() == expected);
        CHECK(Endpoint{address, 65535}.toString() == std::string(expected) + ":65535");
    }
    CHECK(Endpoint{v6("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"), 65535}.toString() ==
          "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe]:65535");
}
