// Each case reproduces a situation that Wireshark 4.0 flags, with the flag tshark gives it
// (the rules are in docs/wireshark-flags.md; the real captures are compared with tshark in
// tests/app/cli/tshark_flags_test.cpp).
#include <catch2/catch.hpp>

#include "session.hpp"

using namespace tcpscope;
using tcpscope::test::Session;

namespace {
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr uint16_t kAck = tcpflag::kAck;

bool only(AnalysisFlags flags, AnalysisFlag flag) { return flags == bit(flag); }
}  // namespace

TEST_CASE("a lost segment, duplicate ACKs and the fast retransmission that repairs it", "[tcp][flags]") {
    Session s;
    s.handshake(0, 0, 0);  // RTT 2 ms
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    // 101..201 is lost before the capture point.
    CHECK(only(s.push(Session::fromClient(201, 1, kAckPsh, 100), 11), AnalysisFlag::LostSegment));
    CHECK(s.push(Session::fromServer(1, 101, kAck), 12) == 0);
    CHECK(only(s.push(Session::fromServer(1, 101, kAck), 13), AnalysisFlag::DuplicateAck));
    s.push(Session::fromClient(301, 1, kAckPsh, 100), 13.5);
    CHECK(only(s.push(Session::fromServer(1, 101, kAck), 14), AnalysisFlag::DuplicateAck));
    const AnalysisFlags repair = s.push(Session::fromClient(101, 1, kAckPsh, 100), 15);
    CHECK(has(repair, AnalysisFlag::FastRetransmission));
    CHECK(has(repair, AnalysisFlag::Retransmission));  // tshark's filter view lists it as both
}

TEST_CASE("a retransmission after a timeout, and an out-of-order segment within the RTT", "[tcp][flags]") {
    Session s;
    s.handshake(0, 0, 0);  // initial RTT 2 ms
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 10.1);
    s.push(Session::fromClient(201, 1, kAckPsh, 100), 10.2);
    // Back to 101 within 2 ms of the highest segment, not ending at it: reordered, not resent.
    CHECK(only(s.push(Session::fromClient(101, 1, kAckPsh, 50), 11), AnalysisFlag::OutOfOrder));
    // The same much later: a retransmission.
    CHECK(only(s.push(Session::fromClient(101, 1, kAckPsh, 100), 300), AnalysisFlag::Retransmission));
}

TEST_CASE("data the receiver had already acknowledged is a spurious retransmission", "[tcp][flags]") {
    Session s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    const AnalysisFlags again = s.push(Session::fromClient(1, 1, kAckPsh, 100), 400);
    CHECK(has(again, AnalysisFlag::SpuriousRetransmission));
    CHECK(has(again, AnalysisFlag::Retransmission));
}

TEST_CASE("an ACK for data the capture never saw", "[tcp][flags]") {
    Session s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    CHECK(only(s.push(Session::fromServer(1, 301, kAck), 11), AnalysisFlag::AckLostSegment));
    // Reported once, not on every later ACK of the same data.
    CHECK(s.push(Session::fromServer(1, 301, kAck), 12) != bit(AnalysisFlag::AckLostSegment));
}

TEST_CASE("zero window, zero-window probe and its ACK, then a window update", "[tcp][flags]") {
    Session s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    auto closed = Session::fromServer(1, 101, kAck);
    closed.window = 0;
    CHECK(only(s.push(closed, 11), AnalysisFlag::ZeroWindow));
    CHECK(only(s.push(Session::fromClient(101, 1, kAck, 1), 211), AnalysisFlag::ZeroWindowProbe));
    const AnalysisFlags probeAck = s.push(closed, 212);
    CHECK(has(probeAck, AnalysisFlag::ZeroWindowProbeAck));
    CHECK(has(probeAck, AnalysisFlag::ZeroWindow));
    CHECK(only(s.push(Session::fromServer(1, 101, kAck), 500), AnalysisFlag::WindowUpdate));
}

TEST_CASE("keep-alive and keep-alive ACK", "[tcp][flags]") {
    Session s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 10), 10);
    s.push(Session::fromServer(1, 11, kAck), 11);
    CHECK(only(s.push(Session::fromClient(10, 1, kAck), 60'000), AnalysisFlag::KeepAlive));
    CHECK(only(s.push(Session::fromServer(1, 11, kAck), 60'001), AnalysisFlag::KeepAliveAck));
}

TEST_CASE("window full uses the receiver's scaled window once both SYNs carried the option", "[tcp][flags]") {
    Session s;
    auto syn = Session::fromClient(0, 0, tcpflag::kSyn);
    syn.options.windowScale = 7;
    s.push(syn, 0);
    auto synAck = Session::fromServer(0, 1, tcpflag::kSyn | kAck);
    synAck.options.windowScale = 2;
    s.push(synAck, 1);
    s.push(Session::fromClient(1, 1, kAck), 2);
    auto ack = Session::fromServer(1, 1, kAck);
    ack.window = 100;  // 100 << 2 = 400 bytes
    s.push(ack, 3);
    CHECK(s.push(Session::fromClient(1, 1, kAckPsh, 200), 4) == 0);
    CHECK(only(s.push(Session::fromClient(201, 1, kAckPsh, 200), 5), AnalysisFlag::WindowFull));
}

TEST_CASE("window full is never claimed when the handshake was not captured", "[tcp][flags]") {
    Session s;
    auto ack = Session::fromServer(1, 1, kAck);
    ack.window = 100;
    s.push(ack, 0);
    CHECK(s.push(Session::fromClient(1, 1, kAckPsh, 100), 1) == 0);
}

TEST_CASE("a repeated SYN after a far-ahead RST does not make the next data look resent", "[tcp][flags]") {
    // The port-reuse collision: SYN, the TIME_WAIT socket's challenge ACK, the client's RST with
    // the sequence number that ACK asked for, then the same SYN again. tshark 4.0 forgets the RST's
    // sequence number when the SYN repeats; so do we.
    Session s;
    s.push(Session::fromClient(100, 0, tcpflag::kSyn), 0);
    s.push(Session::fromClient(900000, 0, tcpflag::kRst), 2);
    CHECK(only(s.push(Session::fromClient(100, 0, tcpflag::kSyn), 500), AnalysisFlag::Retransmission));
    s.push(Session::fromServer(500, 101, tcpflag::kSyn | kAck), 501);
    s.push(Session::fromClient(101, 501, kAck), 502);
    CHECK(s.push(Session::fromClient(101, 501, kAckPsh, 10), 503) == 0);
}

TEST_CASE("without a repeated SYN, data behind a RST's sequence number is a retransmission", "[tcp][flags]") {
    Session s;
    s.push(Session::fromClient(100, 0, tcpflag::kSyn), 0);
    s.push(Session::fromClient(900000, 0, tcpflag::kRst), 2);
    CHECK(only(s.push(Session::fromClient(101, 501, kAckPsh, 10), 503), AnalysisFlag::Retransmission));
}
