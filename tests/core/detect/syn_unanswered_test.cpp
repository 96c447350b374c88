// Connection attempts that never became connections, built in code: SYNs a firewall drops
// (syn_unanswered, one finding per server), a peer-to-peer client whose peers are gone (one
// finding for the client), a spoofed SYN flood (one syn_flood), a port scan (port_scan, info),
// and what is none of them.
#include <catch2/catch.hpp>

#include "detect/syn_unanswered_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

using SynSession = DetectorSession<SynUnansweredDetector>;

// A client's SYN from `client`:`port` to `server`:`serverPort`, at `atMs`.
SegmentSpec synFrom(const std::string& client, uint16_t port, const std::string& server, uint16_t serverPort) {
    return segmentBetween(client, port, server, serverPort, 1000, 0, tcpflag::kSyn, 0);
}

// One attempt retransmitted on Linux's backoff (0, 1, 3 s: three SYNs), never answered.
void unansweredAttempt(SynSession& s, const std::string& client, uint16_t port, const std::string& server,
                       uint16_t serverPort, double atMs) {
    for (const double offset : {0.0, 1000.0, 3000.0}) {
        s.push(synFrom(client, port, server, serverPort), atMs + offset);
    }
}

}  // namespace

TEST_CASE("SYNs a firewall drops: one finding per server, with the clients' wait", "[detect][syn]") {
    SynSession s;
    unansweredAttempt(s, "10.0.0.1", 40001, "10.0.0.9", 21, 0);
    unansweredAttempt(s, "10.0.0.1", 40002, "10.0.0.9", 21, 500);
    unansweredAttempt(s, "10.0.0.2", 40003, "10.0.0.9", 21, 10000);
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::SynUnanswered);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.evidence["server"] == "10.0.0.9:21");
    CHECK(finding.evidence["attempts"] == 3);
    CHECK(finding.evidence["syns"] == 9);
    CHECK(finding.evidence["clients"] == 2);
    // The wall-clock wait: [0, 3.5 s] and [10, 13 s], not the 9 s the three add up to.
    CHECK(finding.durationMs == Approx(6500));
    CHECK(finding.evidence["longest_wait_ms"].get<double>() == Approx(3000));
    CHECK(finding.summary.find("got no SYN-ACK") != std::string::npos);
}

TEST_CASE("a SYN sent once, or answered, or refused at once, is no unanswered attempt", "[detect][syn]") {
    SynSession s;
    s.push(synFrom("10.0.0.1", 40001, "10.0.0.9", 80), 0);  // once, never again: nothing waited that we know
    s.push(synFrom("10.0.0.1", 40002, "10.0.0.9", 81), 10);
    s.push(segmentBetween("10.0.0.9", 81, "10.0.0.1", 40002, 0, 1001, tcpflag::kRst | tcpflag::kAck, 0), 11);
    s.push(synFrom("10.0.0.1", 40003, "10.0.0.9", 82), 20);
    s.push(synFrom("10.0.0.1", 40003, "10.0.0.9", 82), 1020);
    s.push(segmentBetween("10.0.0.9", 82, "10.0.0.1", 40003, 7000, 1001, tcpflag::kSyn | tcpflag::kAck, 0), 1021);
    s.push(segmentBetween("10.0.0.1", 40003, "10.0.0.9", 82, 1001, 7001, tcpflag::kAck, 0), 1022);
    s.finish();
    CHECK(s.findings(FindingKind::SynUnanswered).empty());
    CHECK(s.findings(FindingKind::SynFlood).empty());
}

TEST_CASE("a client whose attempts to many servers went unanswered gets one info finding", "[detect][syn]") {
    SynSession s;
    for (int peer = 0; peer < 8; ++peer) {
        unansweredAttempt(s, "10.0.0.1", static_cast<uint16_t>(40000 + peer), "192.0.2." + std::to_string(10 + peer),
                          6346, peer * 100.0);
    }
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::SynUnanswered);
    CHECK(finding.severity == Severity::Info);  // how peer-to-peer clients work, not an incident's cause
    CHECK(finding.evidence["client"] == "10.0.0.1");
    CHECK(finding.evidence["servers"] == 8);
    CHECK(finding.evidence["connections"].size() == 8);
}

TEST_CASE("a spoofed SYN flood is one finding, not one per SYN", "[detect][syn]") {
    SynSession s;
    for (int i = 0; i < 200; ++i) {
        s.push(synFrom("198.51.100." + std::to_string(i % 250), static_cast<uint16_t>(1024 + i), "10.0.0.9", 80),
               i * 0.1);
    }
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::SynFlood);
    CHECK(finding.evidence["attempts"] == 200);
    CHECK(finding.evidence["unanswered"] == 200);
    CHECK(s.findings(FindingKind::SynUnanswered).empty());
}

TEST_CASE("one source probing many ports is a port scan (info), not unanswered attempts", "[detect][syn]") {
    SynSession s;
    for (int port = 1; port <= 30; ++port) {
        unansweredAttempt(s, "10.0.0.66", static_cast<uint16_t>(50000 + port), "10.0.0.9", static_cast<uint16_t>(port),
                          port * 1.0);
    }
    s.finish();
    const Finding scan = s.onlyFinding(FindingKind::PortScan);
    CHECK(scan.severity == Severity::Info);
    CHECK(scan.evidence["ports"] == 30);
    CHECK(s.findings(FindingKind::SynUnanswered).empty());
    CHECK(s.findings(FindingKind::SynFlood).empty());
}
