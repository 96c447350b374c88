// port_reuse with tuples reused in code: after a RST, into a live TIME_WAIT that accepts the
// SYN, a collision (challenge ACK, RST, SYN again), a tuple that never closed, IPv6, and the
// look-alikes that are not collisions (a lost SYN on a tuple nobody holds).
#include <catch2/catch.hpp>

#include "detect/port_reuse_detector.hpp"
#include "port_test_conversation.hpp"

using namespace tcpscope;

namespace {

using ReuseSession = test::DetectorSession<PortReuseDetector>;
using Tcp = test::Conversation<ReuseSession>;

constexpr uint16_t kClientPort = 40404;
constexpr uint16_t kServerPort = 9100;

Tcp connection(ReuseSession& session, uint32_t clientIsn, uint32_t serverIsn, const std::string& client = "10.0.0.1",
               const std::string& server = "10.0.0.2") {
    return {session, client, kClientPort, server, kServerPort, clientIsn, serverIsn};
}

template <typename Findings>  // a std::vector or the log's FindingStore
size_t countSeverity(const Findings& findings, Severity severity) {
    return static_cast<size_t>(std::count_if(
        findings.begin(), findings.end(), [severity](const Finding& finding) { return finding.severity == severity; }));
}

}  // namespace

TEST_CASE("port_reuse: a tuple reused after a RST-closed connection is info, not a problem", "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000);
    first.handshake(0);
    first.clientData(1, 100);
    first.serverRst(2);

    Tcp second = connection(session, 90000, 70000);
    second.handshake(5);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    const Finding& finding = findings[0];
    CHECK(finding.severity == Severity::Info);
    CHECK(finding.connection == 1);
    CHECK(finding.durationMs == 0);
    CHECK(finding.evidence["outcome"] == "after_gone");
    CHECK(finding.evidence["reuses"] == 1);
    CHECK(finding.evidence["reasons"]["reset"] == 1);
    const auto& instance = finding.evidence["instances"][0];
    CHECK(instance["earlier_connection"] == 0);
    CHECK(instance["earlier_end"] == "reset");
    CHECK(instance["since_earlier_end_ms"].get<double>() == Approx(3.0));
    CHECK(instance["frames"]["syn"] == 6);
    CHECK(instance["frames"]["syn_ack"] == 7);
}

TEST_CASE("port_reuse: a SYN accepted into the server's live TIME_WAIT is a warning with no time lost",
          "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000);
    first.useTimestamps(100, 900);
    first.exchange(0, Side::Server);  // the server closes first: it keeps TIME_WAIT

    // 5 ms later the client comes back from the same port; newer ISN and timestamp.
    Tcp second = connection(session, 2'000'000, 8000);
    second.useTimestamps(200, 1000);
    second.handshake(5.7);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    const Finding& finding = findings[0];
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.durationMs == 0);
    CHECK(finding.evidence["outcome"] == "into_time_wait");
    CHECK(finding.evidence["timestamp_newer"] == 1);
    const auto& instance = finding.evidence["instances"][0];
    CHECK(instance["time_wait_live"] == true);
    CHECK(instance["time_wait_holder"]["side"] == "server");
    CHECK(instance["time_wait_holder"]["endpoint"] == "10.0.0.2:9100");
    CHECK(instance["isn_newer"] == "yes");
    CHECK(instance["timestamp_newer"] == "yes");
    CHECK(instance["since_earlier_end_ms"].get<double>() == Approx(5.1));
    CHECK_THAT(finding.summary, Catch::Contains("TIME_WAIT") && Catch::Contains("timestamp was newer") &&
                                    Catch::Contains("client close first"));
}

TEST_CASE("port_reuse: a collision with the server's TIME_WAIT is an error costing the delay until the handshake",
          "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1'000'000, 5000);
    first.exchange(0, Side::Server);

    // The new ISN is below the old rcv_nxt and there are no timestamps: the TIME_WAIT answers
    // with an ACK for the old connection, the client resets it and sends the SYN again 1 s later.
    Tcp second = connection(session, 500, 9000);
    const uint32_t syn = second.syn(10);
    const uint32_t challenge = second.serverBareAck(10.01, first.serverNext(), first.clientNext());
    const uint32_t reset = second.clientRst(10.02, first.clientNext());
    const uint32_t again = second.syn(1010);
    const uint32_t synAck = second.synAck(1010.05);
    const uint32_t ack = second.handshakeAck(1010.1);
    second.clientData(1010.2, 100);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    const Finding& finding = findings[0];
    CHECK(finding.severity == Severity::Error);
    CHECK(finding.connection == 1);
    CHECK(finding.durationMs == Approx(1000.1).margin(0.01));
    CHECK(finding.frames == std::vector<uint32_t>{syn, challenge, reset, again, synAck, ack});
    const auto& evidence = finding.evidence;
    CHECK(evidence["outcome"] == "collision");
    CHECK(evidence["earlier_connection"] == 0);
    CHECK(evidence["time_wait_holder"]["side"] == "server");
    CHECK(evidence["isn_newer"] == "no");
    CHECK(evidence["timestamp_newer"] == "unknown");
    CHECK(evidence["established"] == true);
    CHECK(evidence["frames"]["challenge_ack"] == challenge);
    CHECK(evidence["frames"]["sender_rst"] == reset);
    CHECK(evidence["frames"]["syn_retransmissions"] == std::vector<uint32_t>{again});
    CHECK_THAT(finding.summary, Catch::Contains("challenge ACK") && Catch::Contains("1000.1 ms") &&
                                    Catch::Contains("fixed source ports") && Catch::Contains("timestamps"));
}

TEST_CASE("port_reuse: the collision finding is made at the challenge ACK and grows until the handshake",
          "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000);
    first.exchange(0, Side::Server);
    Tcp second = connection(session, 500, 9000);  // below the old rcv_nxt
    second.syn(3);
    second.serverBareAck(3.01, first.serverNext(), first.clientNext());
    // A live view sees the error before the connection is established.
    REQUIRE(session.findings(FindingKind::PortReuse).size() == 1);
    CHECK(session.findings(FindingKind::PortReuse)[0].severity == Severity::Error);
    CHECK(session.findings(FindingKind::PortReuse)[0].evidence["established"] == false);

    second.clientRst(3.02, first.clientNext());
    second.syn(1003);
    second.synAck(1003.05);
    second.handshakeAck(1003.1);
    const Finding finding = session.findings(FindingKind::PortReuse)[0];
    CHECK(finding.evidence["established"] == true);
    CHECK(finding.durationMs == Approx(1000.1).margin(0.01));
}

TEST_CASE("port_reuse: a SYN into a live TIME_WAIT that is never answered is a collision", "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000);
    first.exchange(0, Side::Server);
    Tcp second = connection(session, 500, 9000);
    second.syn(2);
    second.syn(1002);
    second.syn(3002);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Error);
    CHECK(findings[0].evidence["established"] == false);
    CHECK(findings[0].evidence["syn_retransmissions"] == 2);
    CHECK(findings[0].durationMs == Approx(3000));
    CHECK_THAT(findings[0].summary, Catch::Contains("did not answer") && Catch::Contains("still not established"));
}

TEST_CASE("port_reuse: a SYN on a tuple whose connection never closed is a warning", "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000);
    first.handshake(0);
    first.clientData(1, 10);
    first.serverAck(1.1);

    // The client restarted and comes back on the same port; the server had lost the connection too.
    Tcp second = connection(session, 4'000'000, 6000);
    second.handshake(30'000);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Warning);
    CHECK(findings[0].evidence["outcome"] == "never_closed");
    CHECK(findings[0].evidence["instances"][0]["earlier_end"] == "open");
    CHECK(findings[0].evidence["instances"][0]["since_earlier_end_ms"].get<double>() == Approx(29'998.9));
    CHECK_THAT(findings[0].summary, Catch::Contains("never seen to close"));
}

TEST_CASE("port_reuse: a SYN on a never-closed tuple answered by a challenge ACK is a collision", "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000);
    first.handshake(0);
    Tcp second = connection(session, 4'000'000, 6000);
    second.syn(100);
    second.serverBareAck(100.01, first.serverNext(), first.clientNext());
    second.clientRst(100.02, first.clientNext());
    second.syn(1100);
    second.synAck(1100.01);
    second.handshakeAck(1100.02);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Error);
    CHECK(findings[0].evidence["earlier_end"] == "open");
    CHECK_THAT(findings[0].summary, Catch::Contains("never seen to close"));
}

TEST_CASE("port_reuse: IPv6 tuples are judged the same way", "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000, "2001:db8::1", "2001:db8::2");
    first.exchange(0, Side::Server);
    Tcp second = connection(session, 500, 9000, "2001:db8::1", "2001:db8::2");
    second.syn(3);
    second.serverBareAck(3.01, first.serverNext(), first.clientNext());
    second.clientRst(3.02, first.clientNext());
    second.syn(1003);
    second.synAck(1003.05);
    second.handshakeAck(1003.1);

    Tcp other = connection(session, 7000, 5000, "2001:db8::1", "2001:db8::3");
    other.exchange(2000, Side::Server);
    Tcp otherAgain = connection(session, 9'000'000, 6000, "2001:db8::1", "2001:db8::3");
    otherAgain.handshake(2002);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 2);
    CHECK(findings[0].severity == Severity::Error);
    CHECK(findings[0].evidence["client"] == "[2001:db8::1]:40404");
    CHECK(findings[0].evidence["server"] == "[2001:db8::2]:9100");
    CHECK(findings[0].durationMs == Approx(1000.1).margin(0.01));
    CHECK(findings[1].severity == Severity::Warning);
    CHECK(findings[1].evidence["server"] == "[2001:db8::3]:9100");
}

TEST_CASE("port_reuse: reuses after TIME_WAIT expired, or of the client's own TIME_WAIT, are info", "[port_reuse]") {
    ReuseSession session;
    // The server held TIME_WAIT, but 61 s have passed.
    Tcp first = connection(session, 1000, 5000);
    first.exchange(0, Side::Server);
    Tcp second = connection(session, 100, 6000);
    second.handshake(61'000);
    // The client closed first and reuses its own TIME_WAIT port (tcp_tw_reuse) 1 s later.
    second.clientData(61'001, 10);
    second.close(61'002, Side::Client);
    Tcp third = connection(session, 50'000'000, 7000);
    third.handshake(62'002);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Info);
    CHECK(findings[0].evidence["reuses"] == 2);
    CHECK(findings[0].evidence["reasons"]["time_wait_expired"] == 1);
    CHECK(findings[0].evidence["reasons"]["sender_time_wait"] == 1);
    CHECK(countSeverity(session.log.all(), Severity::Error) == 0);
}

TEST_CASE("port_reuse: a lost SYN on a tuple nobody holds any more is not a collision", "[port_reuse]") {
    ReuseSession session;
    Tcp first = connection(session, 1000, 5000);
    first.handshake(0);
    first.serverRst(1);
    Tcp second = connection(session, 100, 6000);
    second.syn(10);
    second.syn(1010);  // the first SYN was lost somewhere
    second.synAck(1010.1);
    second.handshakeAck(1010.2);
    session.finish();

    const auto findings = session.findings(FindingKind::PortReuse);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Info);
    CHECK(findings[0].evidence["instances"][0]["syn_retransmissions"] == 1);
}

TEST_CASE("port_reuse: connections on distinct tuples give no finding", "[port_reuse]") {
    ReuseSession session;
    for (uint16_t index = 0; index < 20; ++index) {
        Tcp tcp(session, "10.0.0.1", static_cast<uint16_t>(40000 + index), "10.0.0.2", 80, 1000U * index, 77);
        tcp.exchange(index * 2.0, Side::Server);
    }
    session.finish();
    CHECK(session.findings(FindingKind::PortReuse).empty());
}
