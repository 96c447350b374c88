#include <catch2/catch.hpp>

#include "capture/bpf_filter.hpp"
#include "core/capture/capture_builder.hpp"

using namespace tcpscope;
using namespace tcpscope::testing;

namespace {
RawPacket packetOf(const Bytes& frame, uint32_t linkType) {
    RawPacket packet;
    packet.data = frame.data();
    packet.capturedLength = static_cast<uint32_t>(frame.size());
    packet.originalLength = packet.capturedLength;
    packet.linkType = linkType;
    return packet;
}
}  // namespace

TEST_CASE("bpf filter: tcp port 80 on Ethernet, Linux cooked v2 and raw IP frames", "[bpf]") {
    BpfFilter filter("tcp port 80");
    struct Framing {
        uint32_t linkType;
        Bytes (*wrap)(const Bytes&);
    };
    const std::vector<Framing> framings = {
        {linktype::kEthernet, ethernetFrame},
        {linktype::kLinuxSll2, linuxSll2Frame},
        {linktype::kRaw, [](const Bytes& ip) { return ip; }},
        {linktype::kIpv4, [](const Bytes& ip) { return ip; }},
    };
    for (const Framing& framing : framings) {
        CAPTURE(framing.linkType);
        const Bytes toWeb = framing.wrap(ipv4Tcp(40000, 80, 10));
        const Bytes fromWeb = framing.wrap(ipv4Tcp(80, 40000));
        const Bytes otherPort = framing.wrap(ipv4Tcp(40000, 443));
        const Bytes udp = framing.wrap(ipv4Udp(40000, 80));
        CHECK(filter.matches(packetOf(toWeb, framing.linkType)));
        CHECK(filter.matches(packetOf(fromWeb, framing.linkType)));
        CHECK_FALSE(filter.matches(packetOf(otherPort, framing.linkType)));
        CHECK_FALSE(filter.matches(packetOf(udp, framing.linkType)));
        // Cut before the ports: the filter cannot accept it, and must not read past the capture.
        RawPacket cut = packetOf(toWeb, framing.linkType);
        cut.capturedLength = static_cast<uint32_t>(toWeb.size() - 34);
        CHECK_FALSE(filter.matches(cut));
    }
    CHECK(filter.warnings().empty());
}

TEST_CASE("bpf filter: a bad expression is refused with libpcap's message", "[bpf]") {
    CHECK_THROWS_AS(BpfFilter("tcp port"), BpfFilterError);
    CHECK_THROWS_WITH(BpfFilter("tcp prot 80"), Catch::Contains("tcp prot 80") && Catch::Contains("syntax error"));
    CHECK_THROWS_WITH(BpfFilter("port 99999999"), Catch::Contains("port"));
    CHECK_NOTHROW(BpfFilter(""));  // the empty expression accepts everything
}

TEST_CASE("bpf filter: link types the expression cannot apply to never match, with one warning each", "[bpf]") {
    BpfFilter filter("ether host 01:02:03:04:05:06");
    const Bytes ip = ipv4Tcp(1, 80);
    CHECK_FALSE(filter.matches(packetOf(ip, linktype::kRaw)));
    CHECK_FALSE(filter.matches(packetOf(ip, linktype::kRaw)));
    CHECK_FALSE(filter.matches(packetOf(ip, 147)));  // LINKTYPE_USER0: libpcap knows nothing of it
    CHECK(filter.matches(packetOf(ethernetFrame(ip), linktype::kEthernet)));
    REQUIRE(filter.warnings().size() == 2);
    CHECK_THAT(filter.warnings()[0], Catch::Contains("link type 101"));
    CHECK_THAT(filter.warnings()[1], Catch::Contains("link type 147"));
}

TEST_CASE("bpf filter: moved filters keep working", "[bpf]") {
    BpfFilter original("tcp");
    const Bytes frame = ethernetFrame(ipv4Tcp(1, 2));
    CHECK(original.matches(packetOf(frame, linktype::kEthernet)));
    BpfFilter moved(std::move(original));
    CHECK(moved.matches(packetOf(frame, linktype::kEthernet)));
    CHECK(moved.matches(packetOf(linuxSll2Frame(ipv4Tcp(1, 2)), linktype::kLinuxSll2)));
    BpfFilter assigned("udp");
    assigned = std::move(moved);
    CHECK(assigned.expression() == "tcp");
    CHECK(assigned.matches(packetOf(frame, linktype::kEthernet)));
}
