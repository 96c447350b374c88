#include <catch2/catch.hpp>

#include "decode/tcp_options.hpp"
#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

TcpOptions parse(const std::vector<uint8_t>& bytes) {
    const auto length = static_cast<uint32_t>(bytes.size());
    TcpOptions options;
    options.mss = 1;  // parsing must reset what was there
    parseTcpOptions(bytes.data(), length, length, options);
    return options;
}

/// Options as they arrive in a built segment, through the whole decoder.
TcpOptions decodedOptions(const SegmentSpec& spec) {
    const Decoded decoded = decodeFrame(buildFrame(spec));
    REQUIRE(decoded.status == DecodeStatus::Tcp);
    return decoded.segment.options;
}

}  // namespace

TEST_CASE("no options leave every option absent", "[decode][tcp-options]") {
    const TcpOptions options = parse({});
    CHECK(options.mss == 0);
    CHECK(options.windowScale == -1);
    CHECK_FALSE(options.sackPermitted);
    CHECK_FALSE(options.hasTimestamp);
    CHECK(options.sackCount == 0);
    CHECK_FALSE(options.malformed);
    CHECK_FALSE(options.truncated);
}

TEST_CASE("each option is parsed", "[decode][tcp-options]") {
    CHECK(parse({2, 4, 0x05, 0xB4}).mss == 1460);
    CHECK(parse({1, 3, 3, 7}).windowScale == 7);
    CHECK(parse({4, 2, 0, 0}).sackPermitted);
    const TcpOptions timestamps = parse({1, 1, 8, 10, 0, 0, 0x10, 0x01, 0xFF, 0xFF, 0xFF, 0xFE});
    CHECK(timestamps.hasTimestamp);
    CHECK(timestamps.tsVal == 0x1001);
    CHECK(timestamps.tsEcr == 0xFFFFFFFE);
    const TcpOptions sack = parse({1, 1, 5, 18, 0, 0, 0, 10, 0, 0, 0, 20, 0xFF, 0xFF, 0xFF, 0xF0, 0, 0, 0, 5});
    REQUIRE(sack.sackCount == 2);
    CHECK(sack.sack[0].left == 10);
    CHECK(sack.sack[0].right == 20);
    CHECK(sack.sack[1].left == 0xFFFFFFF0);  // a block may wrap around the sequence space
    CHECK(sack.sack[1].right == 5);
}

TEST_CASE("the window scale shift is clamped to 14, the value sent kept", "[decode][tcp-options]") {
    const TcpOptions fourteen = parse({3, 3, 14, 0});
    CHECK(fourteen.windowScale == 14);
    CHECK(fourteen.windowScaleSent == 14);
    const TcpOptions fifteen = parse({3, 3, 15, 0});
    CHECK(fifteen.windowScale == 14);
    CHECK(fifteen.windowScaleSent == 15);
    const TcpOptions huge = parse({3, 3, 255, 0});
    CHECK(huge.windowScale == 14);
    CHECK(huge.windowScaleSent == 255);
    CHECK(parse({3, 3, 0, 0}).windowScale == 0);
    CHECK_FALSE(huge.malformed);
}

TEST_CASE("the builder's options come back from a decoded segment", "[decode][tcp-options]") {
    SECTION("a Linux SYN") {
        SegmentSpec spec{.flags = tcpflag::kSyn};
        spec.options.mss = 1460;
        spec.options.sackPermitted = true;
        spec.options.hasTimestamp = true;
        spec.options.tsVal = 123456789;
        spec.options.windowScale = 7;
        const TcpOptions options = decodedOptions(spec);
        CHECK(options.mss == 1460);
        CHECK(options.sackPermitted);
        CHECK(options.hasTimestamp);
        CHECK(options.tsVal == 123456789);
        CHECK(options.tsEcr == 0);
        CHECK(options.windowScale == 7);
        CHECK_FALSE(options.malformed);
    }
    SECTION("timestamps with three SACK blocks fill all 40 bytes") {
        SegmentSpec spec;
        spec.options.hasTimestamp = true;
        spec.options.tsVal = 1;
        spec.options.tsEcr = 2;
        spec.options.sackCount = 3;
        spec.options.sack = {{{100, 200}, {300, 400}, {500, 600}, {}}};
        const TcpOptions options = decodedOptions(spec);
        CHECK(options.tsEcr == 2);
        REQUIRE(options.sackCount == 3);
        CHECK(options.sack[2].left == 500);
        CHECK(options.sack[2].right == 600);
    }
    SECTION("four SACK blocks") {
        SegmentSpec spec;
        spec.options.sackCount = 4;
        spec.options.sack = {{{1, 2}, {3, 4}, {5, 6}, {7, 8}}};
        const TcpOptions options = decodedOptions(spec);
        REQUIRE(options.sackCount == 4);
        CHECK(options.sack[3].left == 7);
        CHECK(options.sack[3].right == 8);
    }
}

TEST_CASE("NOP pads, EOL ends the list, unknown options are skipped", "[decode][tcp-options]") {
    // EOL: the MSS-looking bytes after it are padding, not an option.
    CHECK(parse({0, 2, 4, 5, 0xB4, 0, 0, 0}).mss == 0);
    // TCP fast open cookie (34), MPTCP (30) and an experimental option (254) before an MSS.
    const TcpOptions skipped =
        parse({34, 10, 1, 2, 3, 4, 5, 6, 7, 8, 30, 4, 0, 0, 254, 4, 0xF9, 0x89, 2, 4, 0x23, 0x28});
    CHECK(skipped.mss == 9000);
    CHECK_FALSE(skipped.malformed);
    CHECK(parse({1, 1, 1, 1, 1, 1, 1, 2, 4, 0x05, 0xB4, 1}).mss == 1460);
}

TEST_CASE("impossible option lengths stop parsing and keep what was read", "[decode][tcp-options]") {
    for (const uint8_t badLength : {0, 1}) {
        const TcpOptions options = parse({2, 4, 0x05, 0xB4, 99, badLength, 3, 3, 7, 1, 1, 1});
        CHECK(options.mss == 1460);
        CHECK(options.windowScale == -1);
        CHECK(options.malformed);
    }
    // Longer than the header.
    const TcpOptions pastEnd = parse({2, 4, 0x05, 0xB4, 8, 10, 0, 0, 0, 1});
    CHECK(pastEnd.mss == 1460);
    CHECK_FALSE(pastEnd.hasTimestamp);
    CHECK(pastEnd.malformed);
    // A kind byte in the last position, with no room for a length.
    const TcpOptions lastByte = parse({1, 1, 1, 2});
    CHECK(lastByte.malformed);
    CHECK(lastByte.mss == 0);
}

TEST_CASE("a known option with the wrong length is ignored, parsing goes on", "[decode][tcp-options]") {
    const TcpOptions badMss = parse({2, 3, 0x05, 3, 3, 9, 1});
    CHECK(badMss.mss == 0);
    CHECK(badMss.windowScale == 9);
    CHECK(badMss.malformed);
    const TcpOptions badSack = parse({5, 9, 0, 0, 0, 1, 0, 0, 0, 4, 2, 0});
    CHECK(badSack.sackCount == 0);
    CHECK(badSack.sackPermitted);
    CHECK(badSack.malformed);
    CHECK(parse({5, 2, 1, 1}).sackCount == 0);
    CHECK(parse({8, 8, 0, 0, 0, 1, 0, 0, 1, 1}).hasTimestamp == false);
    CHECK(parse({4, 3, 0, 1}).sackPermitted == false);
    CHECK(parse({3, 4, 7, 0}).windowScale == -1);
}

TEST_CASE("options cut by the capture are marked truncated", "[decode][tcp-options]") {
    const std::vector<uint8_t> bytes{2, 4, 0x05, 0xB4, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2, 1, 3, 3, 7};
    const auto length = static_cast<uint32_t>(bytes.size());
    for (uint32_t captured = 0; captured < length; ++captured) {
        CAPTURE(captured);
        TcpOptions options;
        parseTcpOptions(bytes.data(), length, captured, options);
        CHECK(options.truncated);
        CHECK_FALSE(options.malformed);
        CHECK(options.mss == (captured >= 4 ? 1460 : 0));
        CHECK(options.sackPermitted == (captured >= 6));
        CHECK(options.hasTimestamp == (captured >= 16));
        CHECK(options.windowScale == -1);
    }
    TcpOptions whole;
    parseTcpOptions(bytes.data(), length, length + 100, whole);
    CHECK_FALSE(whole.truncated);
    CHECK(whole.windowScale == 7);
}

TEST_CASE("malformed extra options in a segment do not fail the segment", "[decode][tcp-options]") {
    SegmentSpec spec{.seq = 99, .payloadLength = 5};
    spec.options.mss = 1400;
    spec.extraTcpOptions = {8, 40, 0, 0};  // a timestamp claiming 40 bytes
    const Decoded decoded = decodeFrame(buildFrame(spec));
    REQUIRE(decoded.status == DecodeStatus::Tcp);
    CHECK(decoded.segment.seq == 99);
    CHECK(decoded.segment.payloadLength == 5);
    CHECK(decoded.segment.options.mss == 1400);
    CHECK(decoded.segment.options.malformed);
}
