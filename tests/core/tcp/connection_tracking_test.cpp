#include <catch2/catch.hpp>

#include "session.hpp"

using namespace tcpscope;
using tcpscope::test::SegmentSpec;
using tcpscope::test::Session;

namespace {
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr uint16_t kFinAck = tcpflag::kFin | tcpflag::kAck;
}  // namespace

TEST_CASE("a complete connection: handshake, data both ways, client closes first", "[tcp]") {
    Session s;
    s.handshake(1000, 5000);
    s.push(Session::fromClient(1001, 5001, kAckPsh, 100), 3);
    s.push(Session::fromServer(5001, 1101, kAckPsh, 300), 4);
    s.push(Session::fromClient(1101, 5301, kFinAck), 10);
    s.push(Session::fromServer(5301, 1102, kFinAck), 11);
    s.push(Session::fromClient(1102, 5302, tcpflag::kAck), 12);

    REQUIRE(s.engine.connections().size() == 1);
    const Connection& c = s.connection(0);
    CHECK(c.client.toString() == "10.0.0.1:40000");
    CHECK(c.server.toString() == "10.0.0.2:80");
    CHECK(c.state == ConnectionState::Closed);
    CHECK(c.hasActiveCloser);
    CHECK(c.activeCloser == Side::Client);
    CHECK_FALSE(c.hasResetBy);
    CHECK_FALSE(c.midstream);
    CHECK(c.from(Side::Client).payloadBytes == 100);
    CHECK(c.from(Side::Server).payloadBytes == 300);
    CHECK(c.from(Side::Client).packets == 5);
    CHECK(c.from(Side::Server).packets == 3);
    CHECK(c.handshakeRttNs() == 2 * Session::kMs);
    CHECK(c.closeTsNs == Session::kStartNs + 11 * Session::kMs);
    for (size_t i = 0; i < s.engine.packets().size(); ++i) {
        INFO("packet " << i);
        CHECK(s.engine.packets().analysis(i) == 0);
    }
}

TEST_CASE("the server closing first is the active closer (it keeps TIME_WAIT)", "[tcp]") {
    Session s;
    s.handshake(1, 9);
    s.push(Session::fromServer(10, 2, kFinAck), 5);
    s.push(Session::fromClient(2, 11, kFinAck), 6);
    CHECK(s.connection(0).activeCloser == Side::Server);
    CHECK(s.connection(0).state == ConnectionState::Closed);
}

TEST_CASE("a RST ends the connection and records who sent it", "[tcp]") {
    Session s;
    s.handshake(1, 9);
    s.push(Session::fromServer(10, 2, tcpflag::kRst | tcpflag::kAck), 5);
    const Connection& c = s.connection(0);
    CHECK(c.state == ConnectionState::Reset);
    CHECK(c.hasResetBy);
    CHECK(c.resetBy == Side::Server);
    CHECK_FALSE(c.hasActiveCloser);
}

TEST_CASE("a connection first seen mid-stream is tracked, the higher port taken as the client", "[tcp]") {
    Session s;
    // The capture starts with the server's data: without a SYN the ephemeral port marks the client.
    s.push(Session::fromServer(7000, 3000, kAckPsh, 50), 0);
    s.push(Session::fromClient(3000, 7050, tcpflag::kAck), 1);
    REQUIRE(s.engine.connections().size() == 1);
    const Connection& c = s.connection(0);
    CHECK(c.midstream);
    CHECK(c.client.port == 40000);
    CHECK(c.server.port == 80);
    CHECK(c.state == ConnectionState::Established);
    CHECK(c.handshakeRttNs() < 0);
    CHECK(s.engine.packets().analysis(1) == 0);
}

TEST_CASE("a SYN retransmitted with the same ISN stays in the connection as a retransmission", "[tcp]") {
    Session s;
    s.push(Session::fromClient(500, 0, tcpflag::kSyn), 0);
    const AnalysisFlags again = s.push(Session::fromClient(500, 0, tcpflag::kSyn), 1000);
    s.push(Session::fromServer(900, 501, tcpflag::kSyn | tcpflag::kAck), 1001);
    s.push(Session::fromClient(501, 901, tcpflag::kAck), 1002);
    REQUIRE(s.engine.connections().size() == 1);
    CHECK(has(again, AnalysisFlag::Retransmission));
    CHECK_FALSE(has(again, AnalysisFlag::ReusedPorts));
    CHECK(s.connection(0).synCount == 2);
    // The initial RTT counts from the most recent SYN, as Wireshark's does.
    CHECK(s.connection(0).handshakeRttNs() == 2 * Session::kMs);
}

TEST_CASE("a SYN with a new ISN on a used tuple opens a new generation and records the reuse", "[tcp]") {
    Session s;
    s.handshake(100, 200);
    s.push(Session::fromClient(101, 201, kFinAck), 5);
    s.push(Session::fromServer(201, 102, kFinAck), 6);
    s.push(Session::fromClient(102, 202, tcpflag::kAck), 7);
    const AnalysisFlags reuse = s.push(Session::fromClient(90000, 0, tcpflag::kSyn), 2006);
    s.push(Session::fromServer(70000, 90001, tcpflag::kSyn | tcpflag::kAck), 2007);

    REQUIRE(s.engine.connections().size() == 2);
    CHECK(has(reuse, AnalysisFlag::ReusedPorts));
    const Connection& second = s.connection(1);
    CHECK(second.reusedFrom == 0);
    CHECK(second.reusedEarlierClosed);
    CHECK(second.reuseGapNs == 2000 * Session::kMs);
    CHECK(second.state == ConnectionState::SynReceived);
    CHECK(s.connection(0).state == ConnectionState::Closed);
    CHECK(s.engine.packets().connection(s.engine.packets().size() - 1) == 1);
}

TEST_CASE("a reuse after a RST-closed connection is a new generation too", "[tcp]") {
    Session s;
    s.handshake(100, 200);
    s.push(Session::fromClient(101, 201, tcpflag::kRst | tcpflag::kAck), 5);
    s.push(Session::fromClient(5555, 0, tcpflag::kSyn), 10);
    REQUIRE(s.engine.connections().size() == 2);
    CHECK(s.connection(1).reusedFrom == 0);
    CHECK(s.connection(1).reusedEarlierClosed);
    CHECK(s.connection(0).resetBy == Side::Client);
}

TEST_CASE("sequence numbers that wrap around 2^32 are not mistaken for loss or retransmission", "[tcp]") {
    Session s;
    const uint32_t isn = 0xFFFFFF00u;
    s.handshake(isn, 42);
    uint32_t seq = isn + 1;
    double atMs = 3;
    for (int i = 0; i < 6; ++i) {  // 6 x 100 bytes crosses the wrap
        const AnalysisFlags data = s.push(Session::fromClient(seq, 43, kAckPsh, 100), atMs);
        CHECK(data == 0);
        seq += 100;
        CHECK(s.push(Session::fromServer(43, seq, tcpflag::kAck), atMs + 0.5) == 0);
        atMs += 1;
    }
    // An old segment from before the wrap is a retransmission, not new data.
    CHECK(has(s.push(Session::fromClient(isn + 101, 43, kAckPsh, 100), 100), AnalysisFlag::Retransmission));
    CHECK(s.connection(0).from(Side::Client).payloadBytes == 700);
}

TEST_CASE("IPv6 connections are tracked like IPv4 ones", "[tcp]") {
    Session s;
    auto v6 = [](tcpscope::test::SegmentSpec spec, bool fromClient) {
        spec.source = fromClient ? "2001:db8::1" : "2001:db8::2";
        spec.destination = fromClient ? "2001:db8::2" : "2001:db8::1";
        return spec;
    };
    s.push(v6(Session::fromClient(1, 0, tcpflag::kSyn), true), 0);
    s.push(v6(Session::fromServer(7, 2, tcpflag::kSyn | tcpflag::kAck), false), 1);
    s.push(v6(Session::fromClient(2, 8, tcpflag::kAck), true), 2);
    REQUIRE(s.engine.connections().size() == 1);
    CHECK(s.connection(0).client.toString() == "[2001:db8::1]:40000");
    CHECK(s.connection(0).state == ConnectionState::Established);
}

namespace {

// Connection `index` from client port 40000 + index: handshake, FINs both ways and the last ACK,
// all within 5 ms of `atMs`.
void closedConnection(Session& s, uint16_t index, double atMs) {
    const auto on = [index](SegmentSpec spec) {
        (spec.source == SegmentSpec{}.source ? spec.sourcePort : spec.destinationPort) =
            static_cast<uint16_t>(40000 + index);
        return spec;
    };
    s.push(on(Session::fromClient(100, 0, tcpflag::kSyn)), atMs);
    s.push(on(Session::fromServer(200, 101, tcpflag::kSyn | tcpflag::kAck)), atMs + 1);
    s.push(on(Session::fromClient(101, 201, tcpflag::kAck)), atMs + 2);
    s.push(on(Session::fromClient(101, 201, kFinAck)), atMs + 3);
    s.push(on(Session::fromServer(201, 102, kFinAck)), atMs + 4);
    s.push(on(Session::fromClient(102, 202, tcpflag::kAck)), atMs + 5);
}

}  // namespace

TEST_CASE("a closed connection's sequence state is released past TIME_WAIT - a late segment stays in it",
          "[tcp]") {
    Session s;
    for (uint16_t i = 0; i < 128; ++i) {
        closedConnection(s, i, i * 10.0);
    }
    // A segment 60 s after the last packet of the first connections, of another tuple: the states
    // of the connections closed long enough are released (connection_table_test counts them).
    SegmentSpec other = Session::fromClient(7, 0, tcpflag::kSyn);
    other.sourcePort = 50000;
    s.push(other, 60'000 + 1280 + 10);
    REQUIRE(s.engine.connections().size() == 129);

    // The server repeats its FIN 61 s on (its last ACK lost): the same connection, whose state is
    // back as the summary left it, so the FIN is still a retransmission.
    const AnalysisFlags late = s.push(Session::fromServer(201, 102, kFinAck), 61'000);
    CHECK(s.engine.connections().size() == 129);
    CHECK(has(late, AnalysisFlag::Retransmission));
    CHECK(s.connection(0).from(Side::Server).packets == 3);
    CHECK(s.connection(0).lastTsNs == Session::kStartNs + 61'000 * Session::kMs);
}

TEST_CASE("a SYN on the tuple of a connection closed long ago is a new generation, even with the old ISN",
          "[tcp]") {
    Session s;
    closedConnection(s, 0, 0);
    const AnalysisFlags syn = s.push(Session::fromClient(100, 0, tcpflag::kSyn), 60'000 + 6);
    REQUIRE(s.engine.connections().size() == 2);
    CHECK(has(syn, AnalysisFlag::ReusedPorts));
    CHECK(s.connection(1).reusedFrom == 0);
    CHECK(s.connection(1).reuseGapNs == (60'000 + 6 - 4) * Session::kMs);
}
