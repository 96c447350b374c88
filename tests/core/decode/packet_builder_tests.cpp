// The shared test packet builder (tests/support) is used by every core test; these pin its behaviour.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

uint32_t onesComplementSum(const uint8_t* data, size_t length) {
    uint32_t sum = 0;
    for (size_t i = 0; i + 1 < length; i += 2) {
        sum += static_cast<uint32_t>((data[i] << 8) | data[i + 1]);
    }
    while ((sum >> 16) != 0) {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return sum;
}

uint32_t littleEndian32(const std::vector<uint8_t>& bytes, size_t offset) {
    return static_cast<uint32_t>(bytes.at(offset) | (bytes.at(offset + 1) << 8) | (bytes.at(offset + 2) << 16) |
                                 (bytes.at(offset + 3) << 24));
}

}  // namespace

TEST_CASE("builder: default segment is an IPv4 ACK 10.0.0.1:40000 -> 10.0.0.2:80 over Ethernet", "[support]") {
    const auto frame = buildFrame({});
    REQUIRE(frame.size() == 54);
    CHECK(frame[12] == 0x08);
    CHECK(frame[13] == 0x00);
    CHECK(onesComplementSum(frame.data() + 14, 20) == 0xFFFF);  // header checksum verifies
    const Decoded decoded = decodeFrame(frame);
    REQUIRE(decoded.status == DecodeStatus::Tcp);
    CHECK(decoded.segment.source.toString() == "10.0.0.1:40000");
    CHECK(decoded.segment.destination.toString() == "10.0.0.2:80");
    CHECK(decoded.segment.flags == tcpflag::kAck);
    CHECK(decoded.segment.window == 65535);
}

TEST_CASE("builder: explicit payload bytes replace the pattern", "[support]") {
    const SegmentSpec spec{.payloadLength = 99, .payload = {'G', 'E', 'T', ' '}};
    const auto frame = buildFrame(spec);
    const Decoded decoded = decodeFrame(frame);
    REQUIRE(decoded.segment.payloadLength == 4);
    CHECK(std::string(frame.begin() + decoded.segment.payloadOffset, frame.end()) == "GET ");
}

TEST_CASE("builder: bad input is rejected with an exception", "[support]") {
    CHECK_THROWS_AS(buildFrame({.source = "10.0.0.300"}), std::invalid_argument);
    CHECK_THROWS_AS(buildFrame({.source = "2001:db8::1"}), std::invalid_argument);  // mixed families
    CHECK_THROWS_AS(buildFrame({}, 105), std::invalid_argument);
    SegmentSpec tooManyOptions;
    tooManyOptions.options.hasTimestamp = true;
    tooManyOptions.options.sackCount = 4;
    CHECK_THROWS_AS(buildFrame(tooManyOptions), std::invalid_argument);
    CHECK_THROWS_AS(Ipv6Extension::fragment(12, true), std::invalid_argument);
    CHECK_THROWS_AS(fragmentIpPacket(buildIpPacket({}), 7), std::invalid_argument);
}

TEST_CASE("builder: fragments cover the packet exactly", "[support]") {
    const auto packet = buildIpPacket({.payloadLength = 1000});
    const auto fragments = fragmentIpPacket(packet, 300, 0x4242);
    REQUIRE(fragments.size() == 4);  // 1020 bytes of TCP in 296-byte pieces
    std::vector<uint8_t> reassembled(packet.begin(), packet.begin() + 20);
    for (size_t i = 0; i < fragments.size(); ++i) {
        const auto& fragment = fragments[i];
        CHECK(onesComplementSum(fragment.data(), 20) == 0xFFFF);
        CHECK(fragment[4] == 0x42);
        const bool more = (fragment[6] & 0x20) != 0;
        CHECK(more == (i + 1 < fragments.size()));
        CHECK(static_cast<size_t>(((fragment[6] & 0x1F) << 8 | fragment[7]) * 8) == reassembled.size() - 20);
        reassembled.insert(reassembled.end(), fragment.begin() + 20, fragment.end());
    }
    CHECK(std::equal(reassembled.begin() + 20, reassembled.end(), packet.begin() + 20, packet.end()));
}

TEST_CASE("builder: cutToSnaplen, asRaw and BuiltPacket::raw", "[support]") {
    const auto frame = buildFrame({.payloadLength = 100});
    CHECK(cutToSnaplen(frame, 60).size() == 60);
    CHECK(cutToSnaplen(frame, 10000).size() == frame.size());
    const auto cut = cutToSnaplen(frame, 60);
    const RawPacket raw = asRaw(cut, 42, linktype::kEthernet, static_cast<uint32_t>(frame.size()));
    CHECK(raw.tsNs == 42);
    CHECK(raw.capturedLength == 60);
    CHECK(raw.originalLength == frame.size());
    CHECK(raw.data == cut.data());

    const BuiltPacket packet = buildPacket({}, 7, linktype::kLinuxSll2);
    const RawPacket fromPacket = packet.raw();
    CHECK(fromPacket.linkType == linktype::kLinuxSll2);
    CHECK(fromPacket.originalLength == packet.bytes.size());
    CHECK(fromPacket.tsNs == 7);
}

TEST_CASE("builder: pcap files have the classic layout", "[support]") {
    const std::vector<BuiltPacket> packets{buildPacket({}, 1'500'000'123),
                                           buildPacket({.payloadLength = 10}, 2'000'000'000)};
    SECTION("nanosecond, little-endian") {
        const auto bytes = pcapFileBytes(packets, {.linkType = linktype::kEthernet, .snaplen = 65535});
        REQUIRE(bytes.size() == 24 + 16 + 54 + 16 + 64);
        CHECK(littleEndian32(bytes, 0) == 0xA1B23C4D);
        CHECK(littleEndian32(bytes, 16) == 65535);
        CHECK(littleEndian32(bytes, 20) == 1);
        CHECK(littleEndian32(bytes, 24) == 1);            // seconds
        CHECK(littleEndian32(bytes, 28) == 500'000'123);  // nanoseconds
        CHECK(littleEndian32(bytes, 32) == 54);
        CHECK(littleEndian32(bytes, 36) == 54);
    }
    SECTION("microsecond, big-endian, with an original length") {
        auto cut = packets;
        cut[1].originalLength = 1000;
        const auto bytes = pcapFileBytes(cut, {.linkType = linktype::kRaw, .nanosecond = false, .bigEndian = true});
        CHECK(bytes[0] == 0xA1);
        CHECK(bytes[3] == 0xD4);
        CHECK(bytes[23] == 101);
        CHECK(bytes[24 + 3] == 1);                                                      // seconds
        CHECK((bytes[24 + 5] << 16 | bytes[24 + 6] << 8 | bytes[24 + 7]) == 500'000);  // microseconds
        const size_t second = 24 + 16 + 54;
        CHECK((bytes[second + 14] << 8 | bytes[second + 15]) == 1000);
    }
    SECTION("written to a file") {
        const auto path = uniqueTempPath("builder");
        CHECK(path != uniqueTempPath("builder"));
        writePcapFile(path, packets);
        std::ifstream file(path, std::ios::binary);
        const std::vector<uint8_t> onDisk{std::istreambuf_iterator<char>(file), {}};
        CHECK(onDisk == pcapFileBytes(packets));
        std::filesystem::remove(path);
    }
}
