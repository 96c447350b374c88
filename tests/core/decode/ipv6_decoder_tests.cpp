#include <catch2/catch.hpp>

#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

SegmentSpec v6Spec(std::vector<Ipv6Extension> extensions = {}, uint32_t payloadLength = 20) {
    SegmentSpec spec;
    spec.source = "2001:db8::1";
    spec.destination = "2001:db8:0:1::2";
    spec.seq = 4242;
    spec.payloadLength = payloadLength;
    spec.ttl = 33;
    spec.ipv6Extensions = std::move(extensions);
    return spec;
}

/// An extension header of `type` whose body makes it `totalBytes` long (a multiple of 8).
Ipv6Extension sized(uint8_t type, size_t totalBytes) { return {type, std::vector<uint8_t>(totalBytes - 2, 0)}; }

}  // namespace

TEST_CASE("IPv6 header fields reach the segment", "[decode][ipv6]") {
    const Decoded decoded = decodeFrame(buildFrame(v6Spec()));
    REQUIRE(decoded.status == DecodeStatus::Tcp);
    CHECK(decoded.segment.ipVersion == 6);
    CHECK(decoded.segment.ttl == 33);
    CHECK(decoded.segment.ipId == 0);
    CHECK(decoded.segment.source.address.toString() == "2001:db8::1");
    CHECK(decoded.segment.destination.address.toString() == "2001:db8:0:1::2");
    CHECK(decoded.segment.destination.toString() == "[2001:db8:0:1::2]:80");
    CHECK(decoded.segment.payloadOffset == 14 + 40 + 20);
    CHECK(decoded.segment.payloadLength == 20);
}

TEST_CASE("the IPv6 extension header chain is walked to TCP", "[decode][ipv6]") {
    using E = Ipv6Extension;
    const std::vector<std::pair<std::vector<Ipv6Extension>, size_t>> chains{
        {{E::hopByHop()}, 8},
        {{E::destinationOptions()}, 8},
        {{E::routing()}, 8},
        {{E::authentication()}, 16},
        {{sized(135, 16)}, 16},  // mobility header
        {{E::fragment(0, false)}, 8},  // an atomic fragment (RFC 6946) is a whole packet
        {{E::hopByHop(), E::destinationOptions(), E::routing(), E::fragment(0, false), E::authentication(),
          E::destinationOptions()},
         56},
        {{sized(0, 24), sized(60, 2048)}, 24 + 2048},  // lengths up to the maximum byte value
    };
    for (const auto& [chain, extensionBytes] : chains) {
        CAPTURE(chain.size(), extensionBytes);
        const Decoded decoded = decodeFrame(buildFrame(v6Spec(chain)));
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.seq == 4242);
        CHECK(decoded.segment.payloadOffset == 14 + 40 + extensionBytes + 20);
        CHECK(decoded.segment.payloadLength == 20);
        CHECK(decoded.segment.payloadCaptured == 20);
    }
}

TEST_CASE("IPv6 fragments are counted, not parsed as TCP", "[decode][ipv6]") {
    using E = Ipv6Extension;
    CHECK(decodeFrame(buildFrame(v6Spec({E::fragment(0, true)}))).status == DecodeStatus::Fragment);
    CHECK(decodeFrame(buildFrame(v6Spec({E::fragment(1448, true)}))).status == DecodeStatus::Fragment);
    CHECK(decodeFrame(buildFrame(v6Spec({E::fragment(2896, false)}))).status == DecodeStatus::Fragment);
    CHECK(decodeFrame(buildFrame(v6Spec({E::hopByHop(), E::fragment(8, false)}))).status == DecodeStatus::Fragment);

    const auto fragments = fragmentIpPacket(buildIpPacket(v6Spec({E::hopByHop(), E::routing()}, 3000)), 1232);
    REQUIRE(fragments.size() == 3);
    for (const auto& fragment : fragments) {
        CHECK(decodeFrame(wrapInLink(fragment, linktype::kLinuxSll2), linktype::kLinuxSll2).status ==
              DecodeStatus::Fragment);
    }
    // A fragment of a UDP datagram is simply not TCP.
    auto udp = v6Spec({E::fragment(0, true)});
    udp.ipProtocol = 17;
    CHECK(decodeFrame(buildFrame(udp)).status == DecodeStatus::NotTcp);
}

TEST_CASE("ESP, no-next-header and other protocols are NotTcp", "[decode][ipv6]") {
    for (const uint8_t protocol : {17, 58, 50, 59, 132}) {
        auto spec = v6Spec();
        spec.ipProtocol = protocol;
        CHECK(decodeFrame(buildFrame(spec)).status == DecodeStatus::NotTcp);
        spec.ipv6Extensions = {Ipv6Extension::hopByHop(), Ipv6Extension::destinationOptions()};
        CHECK(decodeFrame(buildFrame(spec)).status == DecodeStatus::NotTcp);
    }
}

TEST_CASE("inconsistent IPv6 headers are Malformed", "[decode][ipv6]") {
    SECTION("version") {
        auto frame = buildFrame(v6Spec());
        frame[14] = 0x45;
        CHECK(decodeFrame(frame).status == DecodeStatus::Malformed);
    }
    SECTION("an extension header longer than the payload") {
        auto spec = v6Spec({sized(60, 64)});
        spec.ipLengthOverride = 32;
        CHECK(decodeFrame(buildFrame(spec)).status == DecodeStatus::Malformed);
        spec.ipLengthOverride = 1;  // not even room for next-header and length
        CHECK(decodeFrame(buildFrame(spec)).status == DecodeStatus::Malformed);
    }
    SECTION("a payload length leaving no room for the TCP header") {
        auto spec = v6Spec({Ipv6Extension::hopByHop()});
        spec.ipLengthOverride = 8 + 19;
        CHECK(decodeFrame(buildFrame(spec)).status == DecodeStatus::Malformed);
    }
    SECTION("an endless extension chain") {
        auto spec = v6Spec(std::vector<Ipv6Extension>(17, Ipv6Extension::destinationOptions()));
        CHECK(decodeFrame(buildFrame(spec)).status == DecodeStatus::Malformed);
        spec.ipv6Extensions.resize(15);
        CHECK(decodeFrame(buildFrame(spec)).status == DecodeStatus::Tcp);
    }
}

TEST_CASE("IPv6 payload length 0 (jumbogram, BIG TCP) uses the wire length", "[decode][ipv6]") {
    auto spec = v6Spec({}, 70000 - 20);
    spec.ipLengthOverride = 0;
    const auto frame = buildFrame(spec);
    const Decoded whole = decodeFrame(frame);
    REQUIRE(whole.status == DecodeStatus::Tcp);
    CHECK(whole.segment.payloadLength == 70000 - 20);
    const Decoded cut = decodeFrame(cutToSnaplen(frame, 128), linktype::kEthernet, static_cast<uint32_t>(frame.size()));
    REQUIRE(cut.status == DecodeStatus::Tcp);
    CHECK(cut.segment.payloadLength == 70000 - 20);
    CHECK(cut.segment.payloadCaptured == 128 - 74);
    CHECK(cut.segment.sizeLimited);
}

TEST_CASE("IPv6 headers cut by the capture are Truncated", "[decode][ipv6]") {
    const auto frame = buildFrame(v6Spec({Ipv6Extension::hopByHop(), Ipv6Extension::authentication()}));
    const auto originalLength = static_cast<uint32_t>(frame.size());
    // Everything up to the end of the fixed TCP header: 14 + 40 + 8 + 16 + 20.
    for (uint32_t snaplen = 0; snaplen < 98; ++snaplen) {
        CAPTURE(snaplen);
        CHECK(decodeFrame(cutToSnaplen(frame, snaplen), linktype::kEthernet, originalLength).status ==
              DecodeStatus::Truncated);
    }
    CHECK(decodeFrame(cutToSnaplen(frame, 98), linktype::kEthernet, originalLength).status == DecodeStatus::Tcp);
}

TEST_CASE("lengths beyond the frame on the wire are cut to it, as Wireshark does", "[decode][ipv6][ipv4]") {
    // The header claims 200 B of TCP payload; the frame on the wire holds 100 (not a snapshot cut).
    SECTION("IPv6") {
        auto spec = v6Spec({}, 100);
        spec.ipLengthOverride = 20 + 200;
        const Decoded decoded = decodeFrame(buildFrame(spec));
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.payloadLength == 100);
        CHECK_FALSE(decoded.segment.sizeLimited);
    }
    SECTION("IPv4") {
        const Decoded decoded = decodeFrame(buildFrame({.payloadLength = 100, .ipLengthOverride = 20 + 20 + 200}));
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.payloadLength == 100);
        CHECK_FALSE(decoded.segment.sizeLimited);
    }
}
