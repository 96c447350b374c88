// ICMP "fragmentation needed" and ICMPv6 "packet too big" about TCP segments (path-MTU
// discovery), and "destination unreachable" about them (a SYN a firewall rejects), built in code:
// what the decoder reads of the message and of the segment it quotes.
#include "decode/icmp_unreachable.hpp"
#include "decode_test_helpers.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

struct DecodedTooBig {
    DecodeStatus status = DecodeStatus::Malformed;
    TcpSegment quoted;
    PacketTooBig message;
};

DecodedTooBig decodeTooBig(const std::vector<uint8_t>& ipPacket, uint32_t snaplen = 0) {
    std::vector<uint8_t> frame = wrapInLink(ipPacket);
    const auto originalLength = static_cast<uint32_t>(frame.size());
    if (snaplen != 0) {
        frame = cutToSnaplen(frame, snaplen);
    }
    DecodedTooBig decoded;
    decoded.status =
        decodePacket(asRaw(frame, 0, linktype::kEthernet, originalLength), decoded.quoted, &decoded.message);
    return decoded;
}

// A full-sized segment from a server that a router with a 1400-byte next hop refuses.
SegmentSpec refusedSegment(const std::string& server = "10.0.0.2", const std::string& client = "10.0.0.1") {
    return SegmentSpec{.source = server,
                       .sourcePort = 80,
                       .destination = client,
                       .destinationPort = 40000,
                       .seq = 123456789,
                       .ack = 42,
                       .flags = tcpflag::kAck,
                       .payloadLength = 1460};
}

}  // namespace

TEST_CASE("an ICMP fragmentation-needed message names the segment it refused and the next hop's MTU",
          "[decode][icmp]") {
    const DecodedTooBig decoded = decodeTooBig(buildPacketTooBig(refusedSegment(), "192.0.2.1", 1400));
    REQUIRE(decoded.status == DecodeStatus::PacketTooBig);
    CHECK(decoded.quoted.source.toString() == "10.0.0.2:80");
    CHECK(decoded.quoted.destination.toString() == "10.0.0.1:40000");
    CHECK(decoded.quoted.seq == 123456789);
    CHECK(decoded.quoted.ipVersion == 4);
    CHECK(decoded.message.reporter.toString() == "192.0.2.1");
    CHECK(decoded.message.nextHopMtu == 1400);
    CHECK(decoded.message.quotedPacketBytes == 1500);
}

TEST_CASE("an ICMPv6 packet-too-big message is read the same way", "[decode][icmp]") {
    const DecodedTooBig decoded =
        decodeTooBig(buildPacketTooBig(refusedSegment("2001:db8::2", "2001:db8::1"), "2001:db8:ff::1", 1280));
    REQUIRE(decoded.status == DecodeStatus::PacketTooBig);
    CHECK(decoded.quoted.source.toString() == "[2001:db8::2]:80");
    CHECK(decoded.quoted.seq == 123456789);
    CHECK(decoded.quoted.ipVersion == 6);
    CHECK(decoded.message.reporter.toString() == "2001:db8:ff::1");
    CHECK(decoded.message.nextHopMtu == 1280);
    CHECK(decoded.message.quotedPacketBytes == 1520);
}

TEST_CASE("the IP header and 8 bytes of TCP are enough - less, or a cut capture, is not a message about a segment",
          "[decode][icmp]") {
    const SegmentSpec refused = refusedSegment();
    CHECK(decodeTooBig(buildPacketTooBig(refused, "192.0.2.1", 1400, 28)).status == DecodeStatus::PacketTooBig);
    CHECK(decodeTooBig(buildPacketTooBig(refused, "192.0.2.1", 1400, 27)).status == DecodeStatus::NotTcp);
    // Ethernet 14 + IP 20 + ICMP 8 + quoted IP 20 + 7 bytes of TCP: the sequence number is cut.
    CHECK(decodeTooBig(buildPacketTooBig(refused, "192.0.2.1", 1400), 69).status == DecodeStatus::NotTcp);
    CHECK(decodeTooBig(buildPacketTooBig(refused, "192.0.2.1", 1400), 70).status == DecodeStatus::PacketTooBig);
}

TEST_CASE("other ICMP messages, and messages quoting UDP, are not TCP", "[decode][icmp]") {
    std::vector<uint8_t> unreachable = buildPacketTooBig(refusedSegment(), "192.0.2.1", 1400);
    unreachable[21] = 3;  // port unreachable instead of fragmentation needed
    CHECK(decodeTooBig(unreachable).status == DecodeStatus::NotTcp);
    SegmentSpec udp = refusedSegment();
    udp.ipProtocol = 17;
    CHECK(decodeTooBig(buildPacketTooBig(udp, "192.0.2.1", 1400)).status == DecodeStatus::NotTcp);
}

TEST_CASE("without a place for the message, a too-big message is NotTcp like any ICMP", "[decode][icmp]") {
    const std::vector<uint8_t> frame = wrapInLink(buildPacketTooBig(refusedSegment(), "192.0.2.1", 1400));
    TcpSegment segment;
    segment.seq = 777;
    CHECK(decodePacket(asRaw(frame), segment) == DecodeStatus::NotTcp);
    CHECK(segment.seq == 777);
}

namespace {

struct DecodedUnreachable {
    DecodeStatus status = DecodeStatus::Malformed;
    TcpSegment quoted;
    DestinationUnreachable message;
};

DecodedUnreachable decodeUnreachable(const std::vector<uint8_t>& ipPacket) {
    const std::vector<uint8_t> frame = wrapInLink(ipPacket);
    DecodedUnreachable decoded;
    PacketTooBig tooBig;
    decoded.status = decodePacket(asRaw(frame), decoded.quoted, &tooBig, &decoded.message);
    return decoded;
}

SegmentSpec refusedSyn(const std::string& client = "10.0.0.1", const std::string& server = "10.0.0.2") {
    return SegmentSpec{.source = client,
                       .sourcePort = 40000,
                       .destination = server,
                       .destinationPort = 443,
                       .seq = 987654321,
                       .flags = tcpflag::kSyn};
}

}  // namespace

TEST_CASE("an ICMP administratively-prohibited message names the router, its code and the SYN it refused",
          "[decode][icmp]") {
    const DecodedUnreachable decoded = decodeUnreachable(buildDestinationUnreachable(refusedSyn(), "192.0.2.1", 13));
    REQUIRE(decoded.status == DecodeStatus::Unreachable);
    CHECK(decoded.quoted.source.toString() == "10.0.0.1:40000");
    CHECK(decoded.quoted.destination.toString() == "10.0.0.2:443");
    CHECK(decoded.quoted.seq == 987654321);
    CHECK(decoded.message.reporter.toString() == "192.0.2.1");
    CHECK(decoded.message.type == 3);
    CHECK(decoded.message.code == 13);
    const UnreachableMeaning meaning = describeUnreachable(decoded.message);
    CHECK(meaning.text == "communication administratively prohibited");
    CHECK(meaning.cause == UnreachableCause::Prohibited);
}

TEST_CASE("ICMPv6 destination unreachable is read the same way, with its own codes", "[decode][icmp]") {
    const DecodedUnreachable decoded =
        decodeUnreachable(buildDestinationUnreachable(refusedSyn("2001:db8::1", "2001:db8::2"), "2001:db8:ff::1", 1));
    REQUIRE(decoded.status == DecodeStatus::Unreachable);
    CHECK(decoded.quoted.destination.toString() == "[2001:db8::2]:443");
    CHECK(decoded.message.type == 1);
    CHECK(decoded.message.code == 1);
    CHECK(describeUnreachable(decoded.message).text == "communication with destination administratively prohibited");
}

TEST_CASE("each unreachable code says what refused the segment", "[decode][icmp]") {
    const auto causeOf = [](uint8_t type, uint8_t code) {
        DestinationUnreachable message;
        message.type = type;
        message.code = code;
        return describeUnreachable(message).cause;
    };
    CHECK(causeOf(3, 3) == UnreachableCause::PortRejected);
    CHECK(causeOf(3, 1) == UnreachableCause::NoRoute);
    CHECK(causeOf(3, 10) == UnreachableCause::Prohibited);
    CHECK(causeOf(1, 4) == UnreachableCause::PortRejected);
    CHECK(causeOf(1, 3) == UnreachableCause::NoRoute);
    DestinationUnreachable unknown;
    unknown.type = 3;
    unknown.code = 200;
    CHECK(describeUnreachable(unknown).text.empty());
    CHECK(causeOf(3, 200) == UnreachableCause::Other);
}

TEST_CASE("a too-big message stays PacketTooBig when unreachable messages are asked for too", "[decode][icmp]") {
    const std::vector<uint8_t> frame = wrapInLink(buildPacketTooBig(refusedSegment(), "192.0.2.1", 1400));
    TcpSegment quoted;
    PacketTooBig tooBig;
    DestinationUnreachable unreachable;
    CHECK(decodePacket(asRaw(frame), quoted, &tooBig, &unreachable) == DecodeStatus::PacketTooBig);
    CHECK(tooBig.nextHopMtu == 1400);
}
