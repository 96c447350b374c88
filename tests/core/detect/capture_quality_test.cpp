// A capture that holds its packets twice, whose time goes backwards, or that missed packets:
// the copies are left out of the analysis (so they cannot look like retransmissions) and one
// capture_quality finding says what the file did.
#include <catch2/catch.hpp>

#include "detect/capture_quality_detector.hpp"
#include "detect/retransmission_stall_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;

using QualitySession = DetectorSession<CaptureQualityDetector>;

SegmentSpec withId(SegmentSpec spec, uint16_t ipId) {
    spec.ipId = ipId;
    return spec;
}

}  // namespace

TEST_CASE("every frame captured twice (two interfaces): the copies are left out and reported", "[detect][quality]") {
    QualitySession s;
    uint16_t id = 100;
    for (const double at : {0.0, 1.0, 2.0}) {
        const SegmentSpec spec = withId(Session::fromClient(1, 1, kAckPsh, 10), id++);
        s.push(spec, at);
        s.push(spec, at + 0.02);  // the same packet on the second interface
    }
    s.finish();
    CHECK(s.engine.counters().duplicates == 3);
    CHECK(s.engine.counters().tcp == 3);
    const Finding finding = s.onlyFinding(FindingKind::CaptureQuality);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.evidence["duplicate_packets"] == 3);
    CHECK(finding.evidence["duplicate_frames"] == std::vector<uint32_t>{2, 4, 6});
    CHECK(finding.summary.find("3 of 6 TCP packets (50%) are copies") != std::string::npos);
}

TEST_CASE("a file holding its trace twice: no retransmission timeouts from the copies", "[detect][quality]") {
    DetectorSession<RetransmissionStallDetector> s;
    std::vector<SegmentSpec> trace;
    uint16_t id = 1;
    trace.push_back(withId(Session::fromClient(0, 0, tcpflag::kSyn), id++));
    trace.push_back(withId(Session::fromServer(0, 1, tcpflag::kSyn | kAck), id++));
    trace.push_back(withId(Session::fromClient(1, 1, kAck), id++));
    trace.push_back(withId(Session::fromClient(1, 1, kAckPsh, 100), id++));
    trace.push_back(withId(Session::fromServer(1, 101, kAck), id++));
    for (size_t i = 0; i < trace.size(); ++i) {
        s.push(trace[i], 2000 + static_cast<double>(i) * 10);
    }
    for (size_t i = 0; i < trace.size(); ++i) {  // the trace again, its clock 1.7 s behind
        s.push(trace[i], 300 + static_cast<double>(i) * 10);
    }
    s.finish();
    CHECK(s.engine.counters().duplicates == 5);
    CHECK(s.engine.counters().timeBackwards == 1);
    CHECK(s.findings(FindingKind::RetransmissionStall).empty());
}

TEST_CASE("time going backwards is reported with the largest step", "[detect][quality]") {
    QualitySession s;
    s.push(withId(Session::fromClient(1, 1, kAckPsh, 10), 1), 1000);
    s.push(withId(Session::fromServer(1, 11, kAck), 2), 400);
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::CaptureQuality);
    CHECK(finding.evidence["time_backwards"] == 1);
    CHECK(finding.evidence["largest_backward_ms"].get<double>() == Approx(600));
}

TEST_CASE("a clean capture has no capture_quality finding", "[detect][quality]") {
    QualitySession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 10), 10);
    s.push(Session::fromServer(1, 11, kAck), 11);
    s.finish();
    CHECK(s.findings(FindingKind::CaptureQuality).empty());
}

TEST_CASE("a handshake whose SYN-ACK is not in the file, though the server answers the SYN",
          "[detect][quality][handshake]") {
    QualitySession s;
    s.push(Session::fromClient(0, 0, tcpflag::kSyn), 0);
    s.push(Session::fromClient(1, 1, kAck), 0.3);            // the ACK of a SYN-ACK the file misses
    s.push(Session::fromClient(1, 1, kAckPsh, 82), 0.4);
    s.push(Session::fromServer(1, 83, kAckPsh, 100), 2.6);   // acknowledges the client's data
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::CaptureQuality);
    CHECK(finding.evidence["missing_syn_acks"] == 1);
    CHECK(finding.evidence["missing_client_sides"] == 0);
    CHECK(finding.evidence["missing_handshake_frames"] == std::vector<uint32_t>{4});
    CHECK(finding.summary.find("not the server's SYN-ACK") != std::string::npos);
}

TEST_CASE("only the server's side of a connection is in the file", "[detect][quality][handshake]") {
    QualitySession s;
    s.push(Session::fromServer(0, 1, tcpflag::kSyn | kAck), 0);  // answers client ISN 0
    s.push(Session::fromServer(1, 121, kAckPsh, 300), 40);      // acknowledges 120 B never captured
    s.push(Session::fromServer(301, 121, kAckPsh, 300), 41);
    // Another connection, both sides captured, holds most packets: one connection, not the file, lacks a side.
    for (const double at : {50.0, 51.0, 52.0, 53.0}) {
        const bool fromClient = at == 50.0 || at == 52.0;
        s.push(segmentBetween(fromClient ? "10.0.0.5" : "10.0.0.6", fromClient ? 40005 : 80,
                              fromClient ? "10.0.0.6" : "10.0.0.5", fromClient ? 80 : 40005, 1, 1, kAck),
               at);
    }
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::CaptureQuality);
    CHECK(finding.evidence["missing_client_sides"] == 1);
    CHECK(finding.evidence["missing_handshake_frames"] == std::vector<uint32_t>{2});
    CHECK(finding.summary.find("one direction not captured") != std::string::npos);
}

TEST_CASE("a challenge ACK to a SYN, or a refusal, is no missing SYN-ACK", "[detect][quality][handshake]") {
    QualitySession s;
    s.push(Session::fromClient(5000, 0, tcpflag::kSyn), 0);
    s.push(Session::fromServer(777, 123456, kAck), 0.1);  // the old connection's sequence (TIME_WAIT)
    s.push(Session::fromClient(123456, 0, tcpflag::kRst), 0.2);
    s.push(Session::fromClient(9000, 0, tcpflag::kSyn), 1000);
    s.push(Session::fromServer(0, 9001, tcpflag::kRst | kAck), 1000.1);  // refused
    s.finish();
    CHECK(s.findings(FindingKind::CaptureQuality).empty());

}
