// retransmission_stall with segments built in code: time lost to retransmission timeouts,
// and what must not count (fast retransmissions, the burst that follows an RTO, handshakes).
#include <catch2/catch.hpp>

#include "detect/retransmission_stall_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using tcpscope::test::SegmentSpec;
using tcpscope::test::Session;

namespace {

constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr uint16_t kFinAck = tcpflag::kFin | tcpflag::kAck;

using StallSession = tcpscope::test::DetectorSession<RetransmissionStallDetector>;

Finding onlyFinding(const StallSession& session) {
    return session.onlyFinding(FindingKind::RetransmissionStall);
}

}  // namespace

TEST_CASE("a segment lost at the tail and sent again when the RTO fires", "[detect][rto]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 12);  // lost after the capture point
    const uint32_t original = s.lastFrame();
    CHECK(has(s.push(Session::fromClient(101, 1, kAckPsh, 100), 222), AnalysisFlag::Retransmission));
    const uint32_t resent = s.lastFrame();
    s.push(Session::fromServer(1, 201, kAck), 223);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.connection == 0);
    CHECK(finding.durationMs == Approx(210));
    CHECK(finding.tsNs == Session::kStartNs + 12 * Session::kMs);
    CHECK(finding.frames == std::vector<uint32_t>{original, resent});
    CHECK(finding.evidence["sender"] == "10.0.0.1:40000");
    CHECK(finding.evidence["receiver"] == "10.0.0.2:80");
    CHECK(finding.evidence["sender_side"] == "client");
    CHECK(finding.evidence["stalls"] == 1);
    CHECK(finding.evidence["longest_ms"].get<double>() == Approx(210));
    const auto& instance = finding.evidence["instances"][0];
    CHECK(instance["gap_ms"].get<double>() == Approx(210));
    CHECK(instance["relative_seq"] == 101);
    CHECK(instance["bytes"] == 100);
    CHECK(instance["fin"] == false);
    CHECK(instance["original_captured"] == true);
    CHECK_THAT(finding.summary, Catch::Contains("1 retransmission timeout cost 210.0 ms"));
}

TEST_CASE("a backoff chain counts each wait from the transmission before it", "[detect][rto]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 220);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 630);
    s.push(Session::fromServer(1, 101, kAck), 631);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["stalls"] == 2);
    CHECK(finding.durationMs == Approx(620));
    CHECK(finding.evidence["longest_ms"].get<double>() == Approx(410));
    CHECK(finding.evidence["instances"][1]["frames"] == nlohmann::json::array({5, 6}));
}

TEST_CASE("the segments resent right after an RTO are not counted again", "[detect][rto]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 10.1);
    s.push(Session::fromClient(201, 1, kAckPsh, 100), 10.2);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 220);
    s.push(Session::fromServer(1, 101, kAck), 221);
    CHECK(has(s.push(Session::fromClient(101, 1, kAckPsh, 100), 221.5), AnalysisFlag::Retransmission));
    CHECK(has(s.push(Session::fromClient(201, 1, kAckPsh, 100), 221.6), AnalysisFlag::Retransmission));
    s.push(Session::fromServer(1, 301, kAck), 222);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["stalls"] == 1);
    CHECK(finding.durationMs == Approx(210));
}

TEST_CASE("a fast retransmission is not a timeout, however old the lost segment", "[detect][rto]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);  // lost
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 300);
    s.push(Session::fromServer(1, 1, kAck), 300.5);
    s.push(Session::fromClient(201, 1, kAckPsh, 100), 301);
    s.push(Session::fromServer(1, 1, kAck), 301.5);
    s.push(Session::fromClient(301, 1, kAckPsh, 100), 302);
    s.push(Session::fromServer(1, 1, kAck), 302.5);
    CHECK(has(s.push(Session::fromClient(1, 1, kAckPsh, 100), 303), AnalysisFlag::FastRetransmission));
    s.push(Session::fromServer(1, 401, kAck), 304);
    s.finish();
    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
}

TEST_CASE("a FIN resent alone after all data was acknowledged is no stall: nobody waits for data", "[detect][rto]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    s.push(Session::fromClient(101, 1, kFinAck), 20);
    CHECK(has(s.push(Session::fromClient(101, 1, kFinAck), 230), AnalysisFlag::Retransmission));
    s.push(Session::fromServer(1, 102, kFinAck), 231);
    s.finish();
    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
}

TEST_CASE("data resent with its FIN is a stall", "[detect][rto]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh | tcpflag::kFin, 100), 10);
    CHECK(has(s.push(Session::fromClient(1, 1, kAckPsh | tcpflag::kFin, 100), 220), AnalysisFlag::Retransmission));
    s.push(Session::fromServer(1, 102, kFinAck), 221);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.durationMs == Approx(210));
    CHECK(finding.evidence["instances"][0]["fin"] == true);
    CHECK(finding.evidence["instances"][0]["bytes"] == 100);
}

TEST_CASE("a spurious retransmission is counted apart, never as time lost", "[detect][rto][spurious]") {
    SECTION("the original's ACK arrives too soon after the resend to answer it (capture at the sender, 80 ms RTT)") {
        StallSession s;
        s.push(Session::fromClient(0, 0, tcpflag::kSyn), 0);
        s.push(Session::fromServer(0, 1, tcpflag::kSyn | kAck), 80);
        s.push(Session::fromClient(1, 1, kAck), 80.1);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 100);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 400);  // the RTO fired: the ACK was late
        s.push(Session::fromServer(1, 101, kAck), 401);         // 1 ms later: the original's ACK
        s.finish();
        CHECK(s.findings(FindingKind::RetransmissionStall).empty());
    }
    SECTION("a D-SACK says the receiver had it") {
        StallSession s;
        s.handshake(0, 0, 0);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 300);
        auto dsack = Session::fromServer(1, 101, kAck);
        dsack.options.sackCount = 1;
        dsack.options.sack[0] = SackBlock{1, 101};  // below the cumulative ACK: received twice
        s.push(dsack, 320);
        s.finish();
        CHECK(s.findings(FindingKind::RetransmissionStall).empty());
    }
    SECTION("the same resend answered a round trip later was needed") {
        StallSession s;
        s.push(Session::fromClient(0, 0, tcpflag::kSyn), 0);
        s.push(Session::fromServer(0, 1, tcpflag::kSyn | kAck), 80);
        s.push(Session::fromClient(1, 1, kAck), 80.1);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 100);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 400);
        s.push(Session::fromServer(1, 101, kAck), 480);
        s.finish();
        CHECK(onlyFinding(s).durationMs == Approx(300));
    }
}

TEST_CASE("an original transmission the capture missed: the gap runs from the segment that revealed the hole",
          "[detect][rto]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    // 101..201 was lost before reaching the capture point (at the receiver).
    CHECK(has(s.push(Session::fromClient(201, 1, kAckPsh, 100), 12), AnalysisFlag::LostSegment));
    const uint32_t before = s.lastFrame();
    s.push(Session::fromServer(1, 101, kAck), 12.5);
    CHECK(has(s.push(Session::fromClient(101, 1, kAckPsh, 100), 222), AnalysisFlag::Retransmission));
    const uint32_t resent = s.lastFrame();
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.durationMs == Approx(210));
    CHECK(finding.frames == std::vector<uint32_t>{before, resent});
    CHECK(finding.evidence["instances"][0]["original_captured"] == false);
}

TEST_CASE("a gap shorter than the stall minimum is not a stall", "[detect][rto]") {
    DetectorOptions options;
    options.retransmissionStallMinMs = 500;
    StallSession s(options);
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 220);
    s.push(Session::fromServer(1, 101, kAck), 221);
    s.finish();
    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
}

TEST_CASE("SYN retransmissions are left to the handshake detectors", "[detect][rto]") {
    StallSession s;
    s.push(Session::fromClient(0, 0, tcpflag::kSyn), 0);
    s.push(Session::fromClient(0, 0, tcpflag::kSyn), 1000);
    s.push(Session::fromServer(0, 1, tcpflag::kSyn | kAck), 1001);
    s.push(Session::fromServer(0, 1, tcpflag::kSyn | kAck), 2001);
    s.push(Session::fromClient(1, 1, kAck), 2002);
    s.finish();
    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
}

TEST_CASE("a retransmission across the sequence wraparound", "[detect][rto]") {
    constexpr uint32_t kIsn = 0xFFFFFFB0u;
    StallSession s;
    s.handshake(kIsn, 5000, 0);
    s.push(Session::fromClient(kIsn + 1, 5001, kAckPsh, 100), 10);  // ends at 0x15, past the wrap; lost
    const uint32_t original = s.lastFrame();
    s.push(Session::fromClient(kIsn + 101, 5001, kAckPsh, 100), 10.1);
    CHECK(has(s.push(Session::fromClient(kIsn + 1, 5001, kAckPsh, 100), 220), AnalysisFlag::Retransmission));
    const uint32_t resent = s.lastFrame();
    s.push(Session::fromServer(5001, kIsn + 201, kAck), 221);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.durationMs == Approx(210));
    CHECK(finding.frames == std::vector<uint32_t>{original, resent});
    CHECK(finding.evidence["instances"][0]["relative_seq"] == 1);
}

TEST_CASE("each direction of an IPv6 connection has its own finding", "[detect][rto]") {
    StallSession s;
    auto v6 = [](SegmentSpec spec) {
        const bool fromClient = spec.sourcePort == 40000;
        spec.source = fromClient ? "2001:db8::1" : "2001:db8::2";
        spec.destination = fromClient ? "2001:db8::2" : "2001:db8::1";
        return spec;
    };
    s.push(v6(Session::fromClient(0, 0, tcpflag::kSyn)), 0);
    s.push(v6(Session::fromServer(0, 1, tcpflag::kSyn | kAck)), 1);
    s.push(v6(Session::fromClient(1, 1, kAck)), 2);
    s.push(v6(Session::fromClient(1, 1, kAckPsh, 100)), 10);
    s.push(v6(Session::fromClient(1, 1, kAckPsh, 100)), 250);
    s.push(v6(Session::fromServer(1, 101, kAckPsh, 50)), 251);
    s.push(v6(Session::fromServer(1, 101, kAckPsh, 50)), 551);
    s.push(v6(Session::fromClient(101, 51, kAck)), 552);
    s.finish();

    const auto found = s.findings(FindingKind::RetransmissionStall);
    REQUIRE(found.size() == 2);
    CHECK(found[0].evidence["sender"] == "[2001:db8::1]:40000");
    CHECK(found[0].durationMs == Approx(240));
    CHECK(found[1].evidence["sender_side"] == "server");
    CHECK(found[1].durationMs == Approx(300));
}

TEST_CASE("data and FIN resent after the peer's own FIN, then reset by the peer: nobody waited", "[detect][rto]") {
    // The server closes first; the client's last data and FIN are lost and resent by its timer; the
    // server, whose application had closed the socket, answers the resend with a reset.
    const auto resentAfterPeerFin = [](uint16_t serverAnswer, uint32_t answerAck, bool serverClosedFirst) {
        StallSession s;
        s.handshake(0, 0, 0);
        if (serverClosedFirst) {
            s.push(Session::fromServer(1, 1, kFinAck), 10);
        }
        const uint32_t ack = serverClosedFirst ? 2 : 1;
        s.push(Session::fromClient(1, ack, kAckPsh | tcpflag::kFin, 100), 12);
        CHECK(
            has(s.push(Session::fromClient(1, ack, kAckPsh | tcpflag::kFin, 100), 222), AnalysisFlag::Retransmission));
        s.push(Session::fromServer(ack, answerAck, serverAnswer), 223);
        s.finish();
        return s.findings(FindingKind::RetransmissionStall).size();
    };
    SECTION("the reset acknowledges the resend (a socket closed with data unread)") {
        CHECK(resentAfterPeerFin(tcpflag::kRst | kAck, 102, true) == 0);
    }
    SECTION("the reset acknowledges nothing") {
        CHECK(resentAfterPeerFin(tcpflag::kRst, 0, true) == 0);
    }
    SECTION("a peer that closed its side but still reads acknowledges it: it waited") {
        CHECK(resentAfterPeerFin(kAck, 102, true) == 1);
    }
    SECTION("a peer that had not sent its FIN before the resend was waiting, whatever ends the connection") {
        CHECK(resentAfterPeerFin(tcpflag::kRst | kAck, 102, false) == 1);
    }
}
