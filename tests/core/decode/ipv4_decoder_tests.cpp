#include <catch2/catch.hpp>

#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr size_t kIpOffset = 14;  // IPv4 header in an untagged Ethernet frame

void setU16(std::vector<uint8_t>& frame, size_t offset, uint16_t value) {
    frame.at(offset) = static_cast<uint8_t>(value >> 8);
    frame.at(offset + 1) = static_cast<uint8_t>(value);
}

}  // namespace

TEST_CASE("IPv4 header fields reach the segment", "[decode][ipv4]") {
    const SegmentSpec spec{.source = "192.0.2.10", .destination = "198.51.100.20", .payloadLength = 100,
                           .ttl = 57, .ipId = 0xBEEF};
    const Decoded decoded = decodeFrame(buildFrame(spec));
    REQUIRE(decoded.status == DecodeStatus::Tcp);
    CHECK(decoded.segment.ipVersion == 4);
    CHECK(decoded.segment.ttl == 57);
    CHECK(decoded.segment.ipId == 0xBEEF);
    CHECK(decoded.segment.source.address.toString() == "192.0.2.10");
    CHECK(decoded.segment.destination.address.toString() == "198.51.100.20");
    CHECK(decoded.segment.payloadOffset == 14 + 20 + 20);
    CHECK(decoded.segment.payloadLength == 100);
}

TEST_CASE("IPv4 options move the TCP header by the header length", "[decode][ipv4]") {
    for (const auto& options : std::vector<std::vector<uint8_t>>{
             {0x94, 0x04, 0x00, 0x00},  // router alert
             {0x01, 0x01, 0x01, 0x00},  // NOPs and EOL
             std::vector<uint8_t>(40, 0x01),
         }) {
        const SegmentSpec spec{.seq = 7, .payloadLength = 33, .ipv4Options = options};
        const Decoded decoded = decodeFrame(buildFrame(spec));
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.seq == 7);
        CHECK(decoded.segment.payloadOffset == 14 + 20 + options.size() + 20);
        CHECK(decoded.segment.payloadLength == 33);
        CHECK(decoded.segment.payloadCaptured == 33);
    }
}

TEST_CASE("IPv4 payload length comes from the total length, not the frame", "[decode][ipv4]") {
    SECTION("Ethernet padding after a small packet is not payload") {
        const auto frame = buildFrame({.flags = tcpflag::kAck, .payloadLength = 0}, linktype::kEthernet,
                                      {.padToEthernetMinimum = true});
        REQUIRE(frame.size() == 60);
        const Decoded decoded = decodeFrame(frame);
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.payloadLength == 0);
        CHECK(decoded.segment.payloadCaptured == 0);
        CHECK_FALSE(decoded.segment.sizeLimited);
    }
    SECTION("a trailing Ethernet FCS is not payload") {
        auto frame = buildFrame({.payloadLength = 3});
        frame.insert(frame.end(), {0xDE, 0xAD, 0xBE, 0xEF});
        const Decoded decoded = decodeFrame(frame);
        CHECK(decoded.segment.payloadLength == 3);
        CHECK(decoded.segment.payloadCaptured == 3);
    }
}

TEST_CASE("IPv4 total length 0 (TSO on the capturing host) uses the wire length", "[decode][ipv4]") {
    const auto frame = buildFrame({.payloadLength = 9000, .ipLengthOverride = 0});
    const Decoded whole = decodeFrame(frame);
    REQUIRE(whole.status == DecodeStatus::Tcp);
    CHECK(whole.segment.payloadLength == 9000);
    CHECK_FALSE(whole.segment.sizeLimited);

    // Cut by a snaplen: the original length still gives the size.
    const Decoded cut = decodeFrame(cutToSnaplen(frame, 200), linktype::kEthernet, static_cast<uint32_t>(frame.size()));
    REQUIRE(cut.status == DecodeStatus::Tcp);
    CHECK(cut.segment.payloadLength == 9000);
    CHECK(cut.segment.payloadCaptured == 200 - 54);
    CHECK(cut.segment.sizeLimited);
}

TEST_CASE("IPv4 fragments are counted, not parsed as TCP", "[decode][ipv4]") {
    const SegmentSpec spec{.payloadLength = 3000};
    const auto fragments = fragmentIpPacket(buildIpPacket(spec), 1480);
    REQUIRE(fragments.size() == 3);
    for (const auto& fragment : fragments) {
        CHECK(decodeFrame(wrapInLink(fragment)).status == DecodeStatus::Fragment);
    }
    // A fragment of a UDP datagram is simply not TCP.
    const auto udpFragments = fragmentIpPacket(buildIpPacket({.payloadLength = 100, .ipProtocol = 17}), 64);
    CHECK(decodeFrame(wrapInLink(udpFragments.at(1))).status == DecodeStatus::NotTcp);
    // DF alone is no fragment.
    auto frame = buildFrame(spec);
    setU16(frame, kIpOffset + 6, 0x4000);
    CHECK(decodeFrame(frame).status == DecodeStatus::Tcp);
}

TEST_CASE("non-TCP IPv4 is NotTcp", "[decode][ipv4]") {
    CHECK(decodeFrame(buildFrame({.payloadLength = 8, .ipProtocol = 17})).status == DecodeStatus::NotTcp);
    CHECK(decodeFrame(buildFrame({.ipProtocol = 1})).status == DecodeStatus::NotTcp);
}

TEST_CASE("inconsistent IPv4 headers are Malformed", "[decode][ipv4]") {
    const auto good = buildFrame({.payloadLength = 10});
    SECTION("version") {
        auto frame = good;
        frame[kIpOffset] = 0x55;
        CHECK(decodeFrame(frame).status == DecodeStatus::Malformed);
    }
    SECTION("header length below 20 bytes") {
        for (const uint8_t ihl : {0, 1, 4}) {
            auto frame = good;
            frame[kIpOffset] = static_cast<uint8_t>(0x40 | ihl);
            CHECK(decodeFrame(frame).status == DecodeStatus::Malformed);
        }
    }
    SECTION("total length shorter than the header") {
        auto frame = good;
        setU16(frame, kIpOffset + 2, 19);
        CHECK(decodeFrame(frame).status == DecodeStatus::Malformed);
    }
    SECTION("total length leaving no room for the TCP header") {
        CHECK(decodeFrame(buildFrame({.ipLengthOverride = 39})).status == DecodeStatus::Malformed);
    }
}

TEST_CASE("IPv4 headers cut by the capture are Truncated", "[decode][ipv4]") {
    const auto frame = buildFrame({.payloadLength = 10, .ipv4Options = std::vector<uint8_t>(8, 0x01)});
    const auto originalLength = static_cast<uint32_t>(frame.size());
    for (uint32_t snaplen = 14; snaplen < 14 + 28; ++snaplen) {
        CAPTURE(snaplen);
        CHECK(decodeFrame(cutToSnaplen(frame, snaplen), linktype::kEthernet, originalLength).status ==
              DecodeStatus::Truncated);
    }
}
