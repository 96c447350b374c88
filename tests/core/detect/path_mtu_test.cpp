// path_mtu with packets built in code: data resent after a router's "too big" message is path-MTU
// discovery, its own finding, never a retransmission timeout with the advice to fix a loss.
#include <catch2/catch.hpp>

#include "detect/retransmission_stall_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using tcpscope::test::SegmentSpec;
using tcpscope::test::Session;

namespace {

constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr char kRouter[] = "10.9.9.1";

using StallSession = tcpscope::test::DetectorSession<RetransmissionStallDetector>;

// A download: the server's full-sized segment at `sentMs` is refused by a router with a 1200-byte
// next hop, whose message reaches the capture at `messageMs`; the server sends the data again in
// two smaller segments at `resentMs` and the client acknowledges them. Frames: handshake 1-3,
// request 4, its ACK 5, the refused segment 6, the message 7, the resends 8 and 9, the ACK 10.
void refusedDownload(StallSession& s, double sentMs, double messageMs, double resentMs) {
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    const SegmentSpec refused = Session::fromServer(1, 101, kAckPsh, 1448);
    s.push(refused, sentMs);
    s.pushIp(test::buildPacketTooBig(refused, kRouter, 1200), messageMs);
    s.push(Session::fromServer(1, 101, kAck, 1148), resentMs);
    s.push(Session::fromServer(1149, 101, kAckPsh, 300), resentMs + 0.1);
    s.push(Session::fromClient(101, 1449, kAck), resentMs + 40);
    s.finish();
}

}  // namespace

TEST_CASE("a segment resent at once after a too-big message is path-MTU discovery, not a loss", "[detect][pmtu]") {
    StallSession s;
    refusedDownload(s, 12, 32, 32.2);

    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
    const Finding finding = s.onlyFinding(FindingKind::PathMtu);
    CHECK(finding.severity == Severity::Info);
    CHECK(finding.connection == 0);
    CHECK(finding.tsNs == Session::kStartNs + 12 * Session::kMs);
    CHECK(finding.durationMs == Approx(20.2));
    CHECK(finding.frames == std::vector<uint32_t>{6, 7, 8});
    CHECK(finding.evidence["sender"] == "10.0.0.2:80");
    CHECK(finding.evidence["reported_by"] == kRouter);
    CHECK(finding.evidence["next_hop_mtu"] == 1200);
    CHECK(finding.evidence["refused_packet_bytes"] == 1488);
    CHECK(finding.evidence["messages"] == 1);
    CHECK(finding.evidence["episodes"] == 1);
    CHECK(finding.evidence["resends"] == 2);
    CHECK(finding.evidence["slowest_resend_after_message_ms"].get<double>() == Approx(0.2));
    const auto& episode = finding.evidence["instances"][0];
    CHECK(finding.evidence["instances"].size() == 1);
    CHECK(episode["relative_seq"] == 1);
    CHECK(episode["bytes"] == 1448);
    CHECK(episode["resends"] == 2);
    CHECK(episode["gap_ms"].get<double>() == Approx(20.2));
    CHECK_THAT(finding.summary, Catch::Contains("10.9.9.1 refused packets of 1488 B as too big (its next hop takes "
                                                "1200 B)"));
    CHECK_THAT(finding.summary, Catch::Contains("path-MTU discovery worked"));
    // The timeline's and the sequence diagram's span: the episode, from the refused data's
    // transmission to its first smaller resend, by the server; the router's MTU beside it.
    REQUIRE(finding.spans.size() == 1);
    CHECK(finding.totalSpans == 1);
    CHECK(finding.waitingSide == Side::Server);
    CHECK(finding.spans[0].side == Side::Server);
    CHECK(std::vector<uint32_t>(finding.spans[0].frames.begin(), finding.spans[0].frames.end()) ==
          std::vector<uint32_t>{6, 7, 8});
    CHECK(static_cast<double>(finding.spans[0].endNs - finding.spans[0].startNs) / 1e6 == Approx(20.2));
    CHECK(finding.spans[0].bytes == 1448);
    CHECK(finding.nextHopMtu == 1200u);
}

TEST_CASE("a sender that waits for its timer after the message gets a path_mtu warning, not a loss", "[detect][pmtu]") {
    StallSession s;
    refusedDownload(s, 12, 32, 1012);

    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
    const Finding finding = s.onlyFinding(FindingKind::PathMtu);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.durationMs == Approx(1000));
    CHECK(finding.evidence["slowest_resend_after_message_ms"].get<double>() == Approx(980));
    CHECK_THAT(finding.summary, Catch::Contains("only 980.0 ms after the message"));
    CHECK_THAT(finding.summary, Catch::Contains("clamp the TCP MSS"));
}

TEST_CASE("a too-big message about another connection, or before the data was sent, changes nothing",
          "[detect][pmtu]") {
    SECTION("another connection's message") {
        StallSession s;
        s.handshake(0, 0, 0);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
        s.push(Session::fromServer(1, 101, kAck), 11);
        s.push(Session::fromServer(1, 101, kAckPsh, 1448), 12);
        SegmentSpec other = Session::fromServer(1, 101, kAckPsh, 1448);
        other.destinationPort = 40001;
        s.pushIp(test::buildPacketTooBig(other, kRouter, 1200), 32);
        s.push(Session::fromServer(1, 101, kAckPsh, 1448), 1012);
        s.push(Session::fromClient(101, 1449, kAck), 1052);
        s.finish();
        CHECK(s.findings(FindingKind::PathMtu).empty());
        CHECK(s.onlyFinding(FindingKind::RetransmissionStall).durationMs == Approx(1000));
    }
    SECTION("a message older than the data") {
        StallSession s;
        s.handshake(0, 0, 0);
        const SegmentSpec refused = Session::fromServer(1, 1, kAckPsh, 1448);
        s.pushIp(test::buildPacketTooBig(refused, kRouter, 1200), 5);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
        s.push(Session::fromServer(1, 101, kAck), 11);
        s.push(Session::fromServer(1, 101, kAckPsh, 1148), 12);
        s.push(Session::fromServer(1, 101, kAckPsh, 1148), 1012);
        s.push(Session::fromClient(101, 1149, kAck), 1052);
        s.finish();
        CHECK(s.findings(FindingKind::PathMtu).empty());
        CHECK(s.onlyFinding(FindingKind::RetransmissionStall).durationMs == Approx(1000));
    }
}

TEST_CASE("resends sooner than a round trip after the original (flagged out of order) count too", "[detect][pmtu]") {
    StallSession s;
    // Captured at the server: the client's ACK of the handshake comes a 60 ms round trip later.
    s.push(Session::fromClient(0, 0, tcpflag::kSyn), 0);
    s.push(Session::fromServer(0, 1, tcpflag::kSyn | kAck), 0.05);
    s.push(Session::fromClient(1, 1, kAck), 60);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 60.1);
    s.push(Session::fromServer(1, 101, kAck), 60.2);
    const SegmentSpec refused = Session::fromServer(1, 101, kAckPsh, 1448);
    s.push(refused, 61);
    s.pushIp(test::buildPacketTooBig(refused, kRouter, 1200), 81);
    CHECK(has(s.push(Session::fromServer(1, 101, kAck, 1148), 81.1), AnalysisFlag::OutOfOrder));
    s.push(Session::fromClient(101, 1149, kAck), 141);
    s.finish();

    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
    const Finding finding = s.onlyFinding(FindingKind::PathMtu);
    CHECK(finding.severity == Severity::Info);
    CHECK(finding.durationMs == Approx(20.1));
    CHECK(finding.frames == std::vector<uint32_t>{6, 7, 8});
}

TEST_CASE("a router's further messages about data already being resent belong to the same episode", "[detect][pmtu]") {
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    const SegmentSpec first = Session::fromServer(1, 101, kAck, 1448);
    const SegmentSpec second = Session::fromServer(1449, 101, kAckPsh, 1448);
    s.push(first, 12);
    s.push(second, 12.01);
    s.pushIp(test::buildPacketTooBig(first, kRouter, 1200), 32);
    s.push(Session::fromServer(1, 101, kAck, 1148), 32.1);
    s.pushIp(test::buildPacketTooBig(second, kRouter, 1200), 32.2);
    s.push(Session::fromServer(1149, 101, kAck, 1148), 32.3);
    s.push(Session::fromServer(2297, 101, kAckPsh, 600), 32.4);
    s.push(Session::fromClient(101, 2897, kAck), 72);
    s.finish();

    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
    const Finding finding = s.onlyFinding(FindingKind::PathMtu);
    CHECK(finding.evidence["messages"] == 2);
    CHECK(finding.evidence["episodes"] == 1);
    CHECK(finding.evidence["resends"] == 3);
    CHECK(finding.evidence["instances"][0]["resends"] == 3);
    CHECK(finding.evidence["instances"][0]["bytes"] == 2896);
    CHECK(finding.durationMs == Approx(20.1));
}

TEST_CASE("a timeout resend before the router's message belongs to the path-MTU episode, not to a loss",
          "[detect][pmtu]") {
    // The router refuses the segment and its resend, but its message (rate-limited) comes only about
    // the resend: the data waited from its first transmission because it was too big, never lost.
    StallSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    const SegmentSpec refused = Session::fromServer(1, 101, kAckPsh, 1448);
    s.push(refused, 12);
    CHECK(has(s.push(refused, 222), AnalysisFlag::Retransmission));
    s.pushIp(test::buildPacketTooBig(refused, kRouter, 1200), 242);
    s.push(Session::fromServer(1, 101, kAck, 1148), 242.1);
    s.push(Session::fromServer(1149, 101, kAckPsh, 300), 242.2);
    s.push(Session::fromClient(101, 1449, kAck), 282);
    s.finish();

    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
    const Finding finding = s.onlyFinding(FindingKind::PathMtu);
    CHECK(finding.durationMs == Approx(230.1));
    CHECK(finding.frames == std::vector<uint32_t>{6, 8, 9});
    CHECK(finding.evidence["instances"][0]["after_message_ms"].get<double>() == Approx(0.1));
}
