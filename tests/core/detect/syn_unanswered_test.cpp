// Connection attempts that never became connections, built in code: SYNs a firewall drops
// (syn_unanswered, one finding per server) or rejects with ICMP (refused, the router named), a
// peer-to-peer client whose peers are gone (one finding for the client), a spoofed SYN flood or a
// burst of spoofed SYNs (one syn_flood), a port scan (port_scan, info), and what is none of them.
#include <algorithm>
#include <catch2/catch.hpp>

#include "detect/syn_unanswered_detector.hpp"
#include "stall_test_session.hpp"
#include "support/sequence_capture.hpp"

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

TEST_CASE("SYNs a router rejects with ICMP were refused, not dropped: the finding names the router and the code",
          "[detect][syn][icmp]") {
    SynSession s;
    for (const uint16_t port : {40001, 40002}) {
        for (const double offset : {0.0, 1000.0, 3000.0}) {
            const SegmentSpec syn = synFrom("10.0.0.1", port, "10.0.0.9", 443);
            s.push(syn, port * 10.0 + offset);
            s.pushIp(buildDestinationUnreachable(syn, "192.0.2.254", 13), port * 10.0 + offset + 0.4);
        }
    }
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::SynUnanswered);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.evidence["refused_by_icmp"]["attempts"] == 2);
    CHECK(finding.evidence["refused_by_icmp"]["reporter"] == "192.0.2.254");
    CHECK(finding.evidence["refused_by_icmp"]["type"] == 3);
    CHECK(finding.evidence["refused_by_icmp"]["code"] == 13);
    CHECK(finding.evidence["refused_by_icmp"]["frame"] == 2);
    CHECK_THAT(finding.summary, Catch::Contains("refused, not dropped: 192.0.2.254 answered the SYNs with ICMP "
                                                "destination unreachable, communication administratively "
                                                "prohibited (type 3 code 13, frame 2)"));
    CHECK_THAT(finding.summary, !Catch::Contains("a firewall drops the SYNs"));
}

TEST_CASE("an ICMP message about another connection's SYN, or another SYN of the same ports, refuses nothing",
          "[detect][syn][icmp]") {
    SynSession s;
    SegmentSpec other = synFrom("10.0.0.1", 40001, "10.0.0.9", 443);
    other.seq = 5;  // an earlier attempt with another initial sequence number
    s.pushIp(buildDestinationUnreachable(other, "192.0.2.254", 13), 0);
    s.pushIp(buildDestinationUnreachable(synFrom("10.0.0.1", 40009, "10.0.0.9", 443), "192.0.2.254", 13), 0);
    unansweredAttempt(s, "10.0.0.1", 40001, "10.0.0.9", 443, 10);
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::SynUnanswered);
    CHECK_FALSE(finding.evidence.contains("refused_by_icmp"));
    CHECK_THAT(finding.summary, Catch::Contains("a firewall drops the SYNs"));
}

TEST_CASE("ICMPv6 with no route to the host says where the SYNs went nowhere", "[detect][syn][icmp]") {
    SynSession s;
    for (const double offset : {0.0, 1000.0, 3000.0}) {
        const SegmentSpec syn = synFrom("2001:db8::1", 40001, "2001:db8:2::9", 22);
        s.push(syn, offset);
        s.pushIp(buildDestinationUnreachable(syn, "2001:db8:1::1", 3), offset + 3);
    }
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::SynUnanswered);
    CHECK_THAT(finding.summary, Catch::Contains("2001:db8:1::1 answered the SYNs with ICMPv6 destination "
                                                "unreachable, address unreachable (type 1 code 3, frame 2)"));
    CHECK_THAT(finding.summary, Catch::Contains("no route to 2001:db8:2::9"));
}

TEST_CASE("a burst of a few dozen spoofed SYNs in under a millisecond, none answered, is a flood", "[detect][syn]") {
    SynSession s;
    for (int i = 0; i < 36; ++i) {  // each from an address of its own, sent once, 20 us apart
        s.push(synFrom("203.0.113." + std::to_string(i + 1), static_cast<uint16_t>(20000 + 7 * i), "10.0.0.9", 80),
               i * 0.02);
    }
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::SynFlood);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.evidence["attempts"] == 36);
    CHECK(finding.evidence["source_hosts"] == 36);
    CHECK(finding.evidence["unanswered"] == 36);
    CHECK_THAT(finding.summary, Catch::Contains("in 0.70 ms"));
    CHECK_THAT(finding.summary, Catch::Contains("spoofed sources"));
}

TEST_CASE("what is no burst: too few, too slow, retried, answered, or from one host", "[detect][syn]") {
    const auto burstFinds = [](int attempts, double spacingMs, bool retried, bool answered, bool oneHost) {
        SynSession s;
        for (int i = 0; i < attempts; ++i) {
            const std::string client = oneHost ? "203.0.113.1" : "203.0.113." + std::to_string(i + 1);
            const auto port = static_cast<uint16_t>(20000 + i);
            s.push(synFrom(client, port, "10.0.0.9", 80), i * spacingMs);
            if (retried) {
                s.push(synFrom(client, port, "10.0.0.9", 80), i * spacingMs + 1000);
            }
            if (answered && i == 0) {
                s.push(segmentBetween("10.0.0.9", 80, client, port, 7000, 1001, tcpflag::kSyn | tcpflag::kAck), 0.01);
            }
        }
        s.finish();
        return !s.findings(FindingKind::SynFlood).empty();
    };
    CHECK(burstFinds(30, 0.02, false, false, false));  // the burst itself, for comparison
    CHECK_FALSE(burstFinds(12, 0.02, false, false, false));
    CHECK_FALSE(burstFinds(30, 5, false, false, false));  // 200 a second: clients arriving, not a burst
    CHECK_FALSE(burstFinds(30, 0.02, true, false, false));
    CHECK_FALSE(burstFinds(30, 0.02, false, true, false));
    CHECK_FALSE(burstFinds(30, 0.02, false, false, true));
}

TEST_CASE("the whole analysis hands a router's unreachable messages to the unanswered SYNs", "[detect][syn][icmp]") {
    std::vector<BuiltPacket> packets;
    for (const double offset : {0.0, 1000.0, 3000.0}) {
        const SegmentSpec syn = synFrom("10.0.0.1", 40001, "10.0.0.9", 443);
        const auto atNs = static_cast<int64_t>((1000 + offset) * 1e6);
        packets.push_back(buildPacket(syn, atNs));
        packets.push_back(BuiltPacket{.bytes = wrapInLink(buildDestinationUnreachable(syn, "192.0.2.254", 10)),
                                      .tsNs = atNs + 400'000});
    }
    const CaptureAnalysis analysis = analyzeBuilt(packets);
    const auto found = std::find_if(analysis.findings.begin(), analysis.findings.end(),
                                    [](const Finding& finding) { return finding.kind == FindingKind::SynUnanswered; });
    REQUIRE(found != analysis.findings.end());
    CHECK_THAT(found->summary, Catch::Contains("host administratively prohibited (type 3 code 10, frame 2)"));
}
