// What looks like Nagle meeting a delayed ACK on real traffic and is not, on conversations built
// in code with real round-trip times: request/response (the held segment answers the peer's
// data), an ACK exactly one round trip late seen from the sender, "delayed ACKs" of seconds in a
// capture that missed packets, full-sized segments of a sender whose path MTU is below the MSS;
// and the real stall seen from either end of a 40 ms path.
#include <catch2/catch.hpp>

#include "detect/delayed_ack_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr uint16_t kAck = tcpflag::kAck;

using NagleSession = DetectorSession<DelayedAckDetector>;

// A handshake seen from a capture point `toServerMs` of round trip from the server and
// `toClientMs` from the client (near the client: toClientMs ~ 0), MSS 1460 both ways.
void handshake(NagleSession& s, double toServerMs, double toClientMs) {
    auto syn = Session::fromClient(1000, 0, tcpflag::kSyn);
    syn.options.mss = 1460;
    auto synAck = Session::fromServer(5000, 1001, tcpflag::kSyn | kAck);
    synAck.options.mss = 1460;
    s.push(syn, 0);
    s.push(synAck, toServerMs);
    s.push(Session::fromClient(1001, 5001, kAck), toServerMs + toClientMs);
}

}  // namespace

TEST_CASE("the real stall over a 40 ms path, captured at the client and at the server", "[detect][nagle][rtt]") {
    SECTION("at the client: the ACK comes 40 ms (the round trip) + 40 ms (the timer) after the data") {
        NagleSession s;
        handshake(s, 40, 0.05);
        s.push(Session::fromClient(1001, 5001, kAckPsh, 128), 100);
        s.push(Session::fromServer(5001, 1129, kAck), 180);           // 40 ms late beyond the round trip
        s.push(Session::fromClient(1129, 5001, kAckPsh, 35), 180.02);  // leaves as the ACK arrives
        const Finding stall = s.onlyFinding(FindingKind::DelayedAckStall);
        CHECK(stall.evidence["instances"][0]["ack_late_ms"].get<double>() == Approx(40).margin(0.1));
        CHECK(stall.evidence["instances"][0]["round_trip_ms"].get<double>() == Approx(40).margin(0.1));
        CHECK(stall.evidence["capture_point"] == "near the sender");
        CHECK(stall.summary.find("round trip from the capture point is 40.0 ms") != std::string::npos);
    }
    SECTION("at the server: the ACK leaves 40 ms after the data, the held segment arrives a round trip later") {
        NagleSession s;
        handshake(s, 0.05, 40);
        s.push(Session::fromClient(1001, 5001, kAckPsh, 128), 100);
        s.push(Session::fromServer(5001, 1129, kAck), 140);
        s.push(Session::fromClient(1129, 5001, kAckPsh, 35), 180.5);
        const Finding stall = s.onlyFinding(FindingKind::DelayedAckStall);
        CHECK(stall.evidence["capture_point"] == "near the receiver");
    }
}

TEST_CASE("an ACK one round trip after the data, seen from the sender, is not delayed", "[detect][nagle][rtt]") {
    NagleSession s;
    handshake(s, 45, 0.05);  // 45 ms to the server and back
    s.push(Session::fromClient(1001, 5001, kAckPsh, 128), 100);
    s.push(Session::fromServer(5001, 1129, kAck), 146);  // an immediate ACK, one round trip later
    s.push(Session::fromClient(1129, 5001, kAckPsh, 35), 146.02);
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
}

TEST_CASE("request/response: the next small segment answers the peer's data, whatever the ACK did",
          "[detect][nagle][rtt]") {
    NagleSession s;
    handshake(s, 0.1, 0.1);
    // FTP: USER (P), the server's late pure ACK, its 331 reply, then PASS (D) right after the reply.
    s.push(Session::fromClient(1001, 5001, kAckPsh, 12), 10);
    s.push(Session::fromServer(5001, 1013, kAck), 210);
    s.push(Session::fromServer(5001, 1013, kAckPsh, 30), 210.1);
    s.push(Session::fromClient(1013, 5031, kAckPsh, 14), 210.3);
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
}

TEST_CASE("a 'delayed ACK' of seconds, or of data the capture never saw, is a capture that missed packets",
          "[detect][nagle][rtt]") {
    NagleSession s;
    handshake(s, 0.1, 0.1);
    // 7 s: no delayed-ACK timer waits that long (RFC 1122: less than 0.5 s).
    s.push(Session::fromClient(1001, 5001, kAckPsh, 128), 10);
    s.push(Session::fromServer(5001, 1129, kAck), 7010);
    s.push(Session::fromClient(1129, 5001, kAckPsh, 35), 7010.05);
    // 200 ms, but the ACK covers a megabyte the capture never saw.
    s.push(Session::fromClient(1164, 5001, kAckPsh, 100), 8000);
    s.push(Session::fromServer(5001, 1264 + 1'000'000, kAck), 8200);
    s.push(Session::fromClient(1264 + 1'000'000, 5001, kAckPsh, 35), 8200.05);
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
}

TEST_CASE("segments as large as the largest the sender sends are full-sized (a path MTU below the MSS)",
          "[detect][nagle][rtt]") {
    NagleSession s;
    handshake(s, 0.1, 0.1);
    uint32_t seq = 1001;
    // A cwnd-limited sender of 1288-byte segments (MSS 1460 announced, path MTU lower).
    for (int i = 0; i < 4; ++i) {
        s.push(Session::fromClient(seq, 5001, kAck, 1288), 10 + i * 0.01);
        seq += 1288;
    }
    s.push(Session::fromServer(5001, seq, kAck), 60);  // the receiver's delayed ACK
    s.push(Session::fromClient(seq, 5001, kAck, 1288), 60.05);
    CHECK(s.findings(FindingKind::DelayedAckStall).empty());
}

TEST_CASE("without a handshake, the quickest ACK seen stands for the round trip", "[detect][nagle][rtt]") {
    NagleSession s;
    // Mid-stream: a small segment ACKed after 30 ms (the path), later one ACKed after 70 ms.
    s.push(Session::fromClient(1001, 5001, kAckPsh, 200), 0);
    s.push(Session::fromServer(5001, 1201, kAck), 5);
    s.push(Session::fromClient(1201, 5001, kAckPsh, 100), 10);
    s.push(Session::fromServer(5001, 1301, kAck), 40);
    s.push(Session::fromServer(5001, 1301, kAckPsh, 100), 41);
    s.push(Session::fromClient(1301, 5101, kAckPsh, 100), 100);
    s.push(Session::fromServer(5101, 1401, kAck), 170);  // 40 ms late beyond the 30 ms
    s.push(Session::fromClient(1401, 5101, kAckPsh, 35), 170.05);
    const Finding stall = s.onlyFinding(FindingKind::DelayedAckStall);
    CHECK(stall.evidence["instances"][0]["round_trip_ms"].get<double>() == Approx(30).margin(0.1));
    CHECK(stall.evidence["capture_point"] == "unknown");
}
