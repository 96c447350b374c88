#include <catch2/catch.hpp>

#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

TEST_CASE("TCP header fields reach the segment", "[decode][tcp]") {
    const SegmentSpec spec{.source = "10.1.2.3", .sourcePort = 51234, .destination = "10.9.8.7",
                           .destinationPort = 443, .seq = 0xFFFFFFF0, .ack = 0x12345678,
                           .flags = tcpflag::kAck | tcpflag::kPsh, .window = 501, .payloadLength = 1448};
    const auto frame = buildFrame(spec);
    const Decoded decoded = decodeFrame(frame);
    REQUIRE(decoded.status == DecodeStatus::Tcp);
    const TcpSegment& segment = decoded.segment;
    CHECK(segment.source.toString() == "10.1.2.3:51234");
    CHECK(segment.destination.toString() == "10.9.8.7:443");
    CHECK(segment.seq == 0xFFFFFFF0);
    CHECK(segment.ack == 0x12345678);
    CHECK(segment.flags == (tcpflag::kAck | tcpflag::kPsh));
    CHECK(segment.window == 501);
    CHECK(segment.payloadLength == 1448);
    CHECK(segment.payloadCaptured == 1448);
    CHECK(segment.payloadOffset == 54);
    CHECK_FALSE(segment.sizeLimited);
    REQUIRE(segment.payloadOffset + segment.payloadCaptured == frame.size());
    CHECK(frame[segment.payloadOffset] == payloadByte(0));
    CHECK(frame[segment.payloadOffset + 1447] == payloadByte(1447));
}

TEST_CASE("every TCP flag is decoded, NS from the data offset byte", "[decode][tcp]") {
    for (const uint16_t flag : {tcpflag::kFin, tcpflag::kSyn, tcpflag::kRst, tcpflag::kPsh, tcpflag::kAck,
                                tcpflag::kUrg, tcpflag::kEce, tcpflag::kCwr, tcpflag::kNs}) {
        CAPTURE(flag);
        const Decoded decoded = decodeFrame(buildFrame({.flags = flag}));
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.flags == flag);
    }
    const uint16_t all = 0x1FF;
    CHECK(decodeFrame(buildFrame({.flags = all})).segment.flags == all);
    // The three reserved bits are not flags.
    auto frame = buildFrame({.flags = tcpflag::kSyn});
    frame[14 + 20 + 12] |= 0x0E;
    CHECK(decodeFrame(frame).segment.flags == tcpflag::kSyn);
}

TEST_CASE("a frame cut by the snapshot length keeps the IP-given payload length", "[decode][tcp][snaplen]") {
    SegmentSpec spec{.seq = 5000, .payloadLength = 1000};
    spec.options.hasTimestamp = true;  // 12 option bytes: payload at 14 + 20 + 32 = 66
    const auto frame = buildFrame(spec);
    const auto originalLength = static_cast<uint32_t>(frame.size());

    const Decoded cut = decodeFrame(cutToSnaplen(frame, 96), linktype::kEthernet, originalLength);
    REQUIRE(cut.status == DecodeStatus::Tcp);
    CHECK(cut.segment.seq == 5000);
    CHECK(cut.segment.payloadLength == 1000);
    CHECK(cut.segment.payloadOffset == 66);
    CHECK(cut.segment.payloadCaptured == 30);
    CHECK(cut.segment.sizeLimited);
    CHECK(cut.segment.options.hasTimestamp);
    CHECK_FALSE(cut.segment.options.truncated);

    SECTION("a frame that was that short on the wire is what was there, as in Wireshark") {
        // The IP header claims 1000 B of payload, the file says the frame was 96 B long: Wireshark
        // ("IPv4 total length exceeds packet length") takes the 30 B there were, and so do we, so
        // that sequence analysis agrees with it (a writer that stores the captured length as the
        // original one cannot be told from this).
        const Decoded shortFrame = decodeFrame(cutToSnaplen(frame, 96), linktype::kEthernet, 96);
        REQUIRE(shortFrame.status == DecodeStatus::Tcp);
        CHECK(shortFrame.segment.payloadLength == 30);
        CHECK(shortFrame.segment.payloadCaptured == 30);
        CHECK_FALSE(shortFrame.segment.sizeLimited);
    }
    SECTION("a cut exactly at the payload start") {
        const Decoded atPayload = decodeFrame(cutToSnaplen(frame, 66), linktype::kEthernet, originalLength);
        REQUIRE(atPayload.status == DecodeStatus::Tcp);
        CHECK(atPayload.segment.payloadCaptured == 0);
        CHECK(atPayload.segment.payloadLength == 1000);
    }
    SECTION("a cut inside the options still gives the segment, options marked truncated") {
        // The old tcpdump default snaplen of 68 cuts a Linux SYN's 20 option bytes.
        SegmentSpec syn{.flags = tcpflag::kSyn};
        syn.options.mss = 1460;
        syn.options.sackPermitted = true;
        syn.options.hasTimestamp = true;
        syn.options.windowScale = 7;
        const auto synFrame = buildFrame(syn);
        const Decoded decoded =
            decodeFrame(cutToSnaplen(synFrame, 68), linktype::kEthernet, static_cast<uint32_t>(synFrame.size()));
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.flags == tcpflag::kSyn);
        // 14 of the 20 option bytes were captured: MSS and SACK-permitted, not the timestamps or the scale.
        CHECK(decoded.segment.options.mss == 1460);
        CHECK(decoded.segment.options.sackPermitted);
        CHECK_FALSE(decoded.segment.options.hasTimestamp);
        CHECK(decoded.segment.options.windowScale == -1);
        CHECK(decoded.segment.options.truncated);
        CHECK(decoded.segment.sizeLimited);
        CHECK(decoded.segment.payloadCaptured == 0);
    }
}

TEST_CASE("every cut of a frame decodes without reading past the capture", "[decode][tcp][snaplen]") {
    SegmentSpec spec{.source = "2001:db8::5", .destination = "2001:db8::6", .payloadLength = 64,
                     .ipv6Extensions = {Ipv6Extension::hopByHop()}};
    spec.options.hasTimestamp = true;
    const auto frame = buildFrame(spec, linktype::kEthernet, {.vlanTags = {{0x8100, 3, 0}}});
    const auto originalLength = static_cast<uint32_t>(frame.size());
    const uint32_t tcpStart = 18 + 40 + 8;
    for (uint32_t snaplen = 0; snaplen <= originalLength; ++snaplen) {
        CAPTURE(snaplen);
        const auto cut = cutToSnaplen(frame, snaplen);
        const Decoded decoded = decodeFrame(cut, linktype::kEthernet, originalLength);
        if (snaplen < tcpStart + 20) {
            CHECK(decoded.status == DecodeStatus::Truncated);
            continue;
        }
        REQUIRE(decoded.status == DecodeStatus::Tcp);
        CHECK(decoded.segment.payloadLength == 64);
        CHECK(decoded.segment.payloadCaptured == (snaplen > tcpStart + 32 ? snaplen - (tcpStart + 32) : 0));
        CHECK(decoded.segment.sizeLimited == (snaplen < originalLength));
        CHECK(decoded.segment.options.hasTimestamp == (snaplen >= tcpStart + 32));
    }
}

TEST_CASE("bad TCP data offsets are Malformed", "[decode][tcp]") {
    const auto good = buildFrame({.payloadLength = 8});
    const size_t dataOffsetByte = 14 + 20 + 12;
    for (const uint8_t words : {0, 1, 4}) {
        auto frame = good;
        frame[dataOffsetByte] = static_cast<uint8_t>(words << 4);
        CHECK(decodeFrame(frame).status == DecodeStatus::Malformed);
    }
    // 15 words = 60 bytes, but the IP packet holds only 28 bytes of TCP.
    auto frame = good;
    frame[dataOffsetByte] = 0xF0;
    CHECK(decodeFrame(frame).status == DecodeStatus::Malformed);
    // 7 words = 28 bytes: exactly the IP payload, so the options are the 8 payload bytes and payload is empty.
    frame[dataOffsetByte] = 0x70;
    const Decoded exact = decodeFrame(frame);
    REQUIRE(exact.status == DecodeStatus::Tcp);
    CHECK(exact.segment.payloadLength == 0);
}

TEST_CASE("the segment is left alone unless the frame is TCP", "[decode][tcp]") {
    TcpSegment segment;
    segment.seq = 777;
    segment.payloadLength = 888;
    const auto udp = buildFrame({.payloadLength = 8, .ipProtocol = 17});
    CHECK(decodePacket(asRaw(udp), segment) == DecodeStatus::NotTcp);
    const auto cut = cutToSnaplen(buildFrame({}), 40);
    CHECK(decodePacket(asRaw(cut, 0, linktype::kEthernet, 54), segment) == DecodeStatus::Truncated);
    CHECK(segment.seq == 777);
    CHECK(segment.payloadLength == 888);
}

TEST_CASE("an empty or missing frame is Truncated", "[decode][tcp]") {
    TcpSegment segment;
    RawPacket packet;
    packet.linkType = linktype::kEthernet;
    packet.capturedLength = 100;  // a lie: there is no data
    CHECK(decodePacket(packet, segment) == DecodeStatus::Truncated);
    CHECK(decodeFrame({}, linktype::kEthernet).status == DecodeStatus::Truncated);
    CHECK(decodeFrame({}, linktype::kIpv6).status == DecodeStatus::Truncated);
}

TEST_CASE("status names are short and stable", "[decode]") {
    CHECK(std::string(decodeStatusName(DecodeStatus::Tcp)) == "tcp");
    CHECK(std::string(decodeStatusName(DecodeStatus::NotTcp)) == "not-tcp");
    CHECK(std::string(decodeStatusName(DecodeStatus::Fragment)) == "fragment");
    CHECK(std::string(decodeStatusName(DecodeStatus::UnsupportedLink)) == "unsupported-link");
    CHECK(std::string(decodeStatusName(DecodeStatus::Malformed)) == "malformed");
    CHECK(std::string(decodeStatusName(DecodeStatus::Truncated)) == "truncated");
}
