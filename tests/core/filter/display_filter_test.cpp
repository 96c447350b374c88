// The display filter on packets built in code: Wireshark's meanings of its operators, and one
// clear error (offset and reason) for what it cannot run.
#include "filter/display_filter.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "decode/decoded_packet.hpp"

namespace {

using tcpscope::AnalysisFlag;
using tcpscope::Connection;
using tcpscope::IndexedPacket;
using tcpscope::IpAddress;
using tcpscope::filter::DisplayFilter;
using tcpscope::filter::DisplayFilterError;
using tcpscope::filter::FilterPacket;

IpAddress v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
    const uint8_t bytes[4] = {a, b, c, d};
    return IpAddress::fromV4(bytes);
}

/// 10.0.0.1:40000 -> 192.168.1.9:3306, the client's packet, frame 7, 1.25 s into the capture.
struct BuiltPacket {
    Connection connection;
    IndexedPacket packet;

    BuiltPacket() {
        connection.client = {v4(10, 0, 0, 1), 40000};
        connection.server = {v4(192, 168, 1, 9), 3306};
        connection.sequence[0].baseSeq = 1000;
        connection.sequence[0].windowScale = 7;
        connection.sequence[1].baseSeq = 5000;
        connection.synAckTsNs = 100;
        packet.frame = 7;
        packet.tsNs = 1'250'000'000;
        packet.connection = 3;
        packet.seq = 1001;
        packet.ack = 5001;
        packet.payloadLength = 100;
        packet.tcpFlags = tcpscope::tcpflag::kAck | tcpscope::tcpflag::kPsh;
        packet.window = 512;
        packet.analysis = tcpscope::bit(AnalysisFlag::FastRetransmission) | tcpscope::bit(AnalysisFlag::Retransmission);
    }
};

bool matches(const std::string& expression, const BuiltPacket& built = BuiltPacket()) {
    return DisplayFilter::compile(expression).matches(FilterPacket{built.packet, built.connection, 0});
}

/// The error's offset and reason for `expression`, or "no error".
std::string errorOf(const std::string& expression) {
    try {
        (void)DisplayFilter::compile(expression);
    } catch (const DisplayFilterError& error) {
        return std::to_string(error.offset()) + ": " + error.reason();
    }
    return "no error";
}

}  // namespace

TEST_CASE("display filter fields read the packet's record and its connection", "[filter]") {
    CHECK(matches("frame.number == 7"));
    CHECK(matches("frame.time_relative > 1.2 && frame.time_relative <= 1.25"));
    CHECK_FALSE(matches("frame.time_relative > 1.25"));
    CHECK(matches("ip.src == 10.0.0.1 && ip.dst == 192.168.1.9"));
    CHECK(matches("tcp.srcport == 40000 && tcp.dstport == 3306 && tcp.stream == 3"));
    CHECK(matches("tcp.seq == 1 && tcp.ack == 1 && tcp.seq_raw == 1001 && tcp.len == 100"));
    CHECK(matches("tcp.flags == 0x018 && tcp.flags.push == 1 && tcp.flags.syn == 0 && tcp.flags.ack == True"));
    CHECK(matches("tcp.window_size_value == 512 && tcp.window_size == 65536"));
    CHECK(matches("tcp.analysis.flags && tcp.analysis.retransmission && tcp.analysis.fast_retransmission"));
    CHECK_FALSE(matches("tcp.analysis.duplicate_ack"));
}

TEST_CASE("fields of the frame's own record are absent without it, and read from it when given", "[filter]") {
    BuiltPacket built;
    const DisplayFilter filter = DisplayFilter::compile("frame.len == 1514 && ip.ttl == 63 && tcp.options.mss_val");
    CHECK(filter.readsFrameRecords());
    CHECK_FALSE(DisplayFilter::compile("tcp.port == 80").readsFrameRecords());
    CHECK_FALSE(filter.matches(FilterPacket{built.packet, built.connection, 0}));
    tcpscope::filter::FrameRecord record;
    record.frame = 7;
    record.originalLength = 1514;
    record.tcp = true;
    record.segment.ttl = 63;
    record.segment.options.mss = 1460;
    CHECK(filter.matches(FilterPacket{built.packet, built.connection, 0, &record}));
    record.segment.ipVersion = 6;  // ip.ttl is IPv4's; IPv6 has ipv6.hlim
    CHECK_FALSE(filter.matches(FilterPacket{built.packet, built.connection, 0, &record}));
}

TEST_CASE("display filter operators mean what they mean in Wireshark 4.0", "[filter]") {
    // != is "all not equal": a packet to or from the address is left out.
    CHECK_FALSE(matches("ip.addr != 10.0.0.1"));
    CHECK(matches("ip.addr !== 10.0.0.1"));
    CHECK(matches("ip.addr ~= 10.0.0.1"));
    CHECK_FALSE(matches("ip.addr === 10.0.0.1"));
    CHECK(matches("ip.addr == 192.168.0.0/16 and ip.src eq 10.0.0.0/8"));
    CHECK(matches("tcp.port in {80, 443, 3300..3310}"));
    CHECK(matches("tcp.port in {80 443 3306}"));  // spaces, as Wireshark before 4.0 wrote sets
    CHECK(matches("tcp.flags & 0x08"));
    CHECK_FALSE(matches("tcp.flags & 0x05"));
    // and binds tighter than or.
    CHECK(matches("tcp.port == 3306 or tcp.port == 1 and tcp.port == 2"));
    CHECK_FALSE(matches("(tcp.port == 3306 or tcp.port == 1) and tcp.port == 2"));
    CHECK(matches("!(tcp.len == 0) && not tcp.flags.syn == 1"));
    // A field alone is "present": every TCP packet has tcp.flags.syn.
    CHECK(matches("tcp.flags.syn"));
    // A field the packet lacks fails every comparison, != included.
    CHECK_FALSE(matches("ipv6.addr == ::1"));
    CHECK_FALSE(matches("ipv6.addr != ::1"));
    CHECK(matches("ip && !ipv6 && tcp"));
    CHECK(matches("frame.number == 0x7 && frame.number == 07 && frame.number ge 7 && frame.number lt 8"));
}

TEST_CASE("an IPv6 packet has ipv6 fields and no ip fields", "[filter]") {
    BuiltPacket built;
    const IpAddress client = [] {
        IpAddress address;
        address.bytes = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
        return address;
    }();
    built.connection.client.address = client;
    built.connection.server.address = client;
    built.connection.server.address.bytes[15] = 2;
    CHECK(matches("ipv6.src == 2001:db8::1 && ipv6.dst == 2001:db8::2", built));
    CHECK(matches("ipv6.addr == 2001:db8::/32", built));
    CHECK_FALSE(matches("ipv6.addr == 2001:db9::/32", built));
    CHECK_FALSE(matches("ip.addr == 10.0.0.0/8 || ip.addr != 10.0.0.0/8", built));
}

TEST_CASE("a display filter tcpscope cannot run is one error with its offset and reason", "[filter]") {
    CHECK(errorOf("http.host == x") ==
          "0: field http.host is not supported (tcpscope filters TCP, IP and frame fields: see docs/cli.md)");
    CHECK(errorOf("tcp.port == 80 && ip.len > 3") ==
          "18: field ip.len is not supported: of the IP header tcpscope filters on ip.src, ip.dst, ip.addr, ip.ttl and "
          "ip.id (tcpscope filters TCP, IP and frame fields: see docs/cli.md)");
    CHECK(errorOf("tcp.port == 3307 &&") == "19: the expression ends where a field was expected");
    CHECK(errorOf("tcp.port == x") == "12: \"x\" is not a valid value for tcp.port: it takes an unsigned integer");
    CHECK(errorOf("(tcp.port == 1") == "14: the parenthesis at offset 0 is not closed");
    CHECK(errorOf("tcp.analysis.retransmission == 1").starts_with("28: tcp.analysis.retransmission has no value"));
    CHECK(errorOf("ip.addr == 10.0.0.0/33").starts_with("11: \"10.0.0.0/33\" is not a valid value for ip.addr"));
    CHECK(errorOf("tcp.srcport == tcp.dstport") == "15: comparing a field with another field is not supported");
    CHECK(errorOf("tcp.port == 80 tcp.port == 81") == "15: \"tcp.port\" was unexpected here");
    CHECK(errorOf("tcp.flags[0] == 2") == "9: \"[\" is not part of tcpscope's filter syntax");
    CHECK(errorOf("tcp contains \"GET\"").starts_with("4: the operator contains is not supported"));
    CHECK(errorOf("") == "0: the expression is empty");
    CHECK(errorOf(std::string(300, '(') + "tcp" + std::string(300, ')')).ends_with("nested parentheses or negations"));
    CHECK(errorOf(std::string(100'000, '!')).ends_with("bytes"));
}
