// What a capture cannot show, built in code: one direction only, data segments only, a large share
// of the acknowledged data missing, two recordings joined, a clock jumping years, and a few copies
// (information, not a warning). Each says what it means for the other findings.
#include <catch2/catch.hpp>

#include "detect/capture_quality_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;
constexpr double kDayMs = 86'400'000;

using QualitySession = DetectorSession<CaptureQualityDetector>;

}  // namespace

TEST_CASE("a capture of one direction: the client's ACKs show server data never captured", "[detect][quality]") {
    QualitySession s;
    uint32_t clientSeq = 1;
    for (int exchange = 0; exchange < 5; ++exchange) {
        s.push(Session::fromClient(clientSeq, 1 + 2000 * exchange, kAckPsh, 60), exchange * 100.0);
        clientSeq += 60;
        s.push(Session::fromClient(clientSeq, 1 + 2000 * (exchange + 1), kAck), exchange * 100.0 + 40);
    }
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::CaptureQuality);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.evidence["one_sided_connections"] == 1);
    CHECK(finding.evidence["one_sided_packets"] == 10);
    CHECK_THAT(finding.summary, Catch::Contains("the file holds one direction only: 1 connection (100% of the TCP "
                                                "packets) has only one side's packets"));
    CHECK_THAT(finding.summary, Catch::Contains("no round trip can be measured"));
    CHECK_THAT(finding.summary, Catch::Contains("apture where both directions pass"));
}

TEST_CASE("a sender whose peer never answers is no capture of one direction", "[detect][quality]") {
    QualitySession s;
    for (const double at : {0.0, 200.0, 600.0, 1400.0, 3000.0}) {
        s.push(Session::fromClient(1, 1, kAckPsh, 648), at);  // resent on its timer, the ACK number never moves
    }
    s.finish();
    CHECK(s.findings(FindingKind::CaptureQuality).empty());
}

TEST_CASE("a capture of data segments only: no handshake, FIN or pure ACK to judge by", "[detect][quality]") {
    const auto capture = [](int pureAckEvery) {
        QualitySession s;
        for (int i = 0; i < 60; ++i) {
            const auto step = static_cast<uint32_t>(i);
            s.push(Session::fromClient(1 + 100 * step, 1 + 300 * step, kAckPsh, 100), i * 10.0);
            s.push(Session::fromServer(1 + 300 * step, 101 + 100 * step, kAckPsh, 300), i * 10.0 + 1);
            if (pureAckEvery > 0 && i % pureAckEvery == 0) {
                s.push(Session::fromClient(101 + 100 * step, 301 + 300 * step, kAck), i * 10.0 + 2);
            }
        }
        s.finish();
        return s.findings(FindingKind::CaptureQuality);
    };
    const std::vector<Finding> filtered = capture(0);
    REQUIRE(filtered.size() == 1);
    CHECK(filtered.front().evidence["segments_without_payload"] == 0);
    CHECK_THAT(filtered.front().summary,
               Catch::Contains("the file holds data segments only (120 of 120 carry payload; no SYN, FIN, RST or "
                               "pure ACK but 0)"));
    CHECK_THAT(filtered.front().summary, Catch::Contains("port reuse, listen-backlog overflow"));
    CHECK(capture(5).empty());  // a pure ACK every fifth exchange: 10 % of the segments, as TCP sends them
}

TEST_CASE("requests and responses on a kept-alive connection, every ACK on data, are no filtered capture",
          "[detect][quality]") {
    // ab -k against nginx: after the handshake each request acknowledges the last response and each
    // response the request, so 2 of 602 segments carry no payload (samples/seeds/ab-keepalive).
    QualitySession s;
    s.push(Session::fromClient(0, 0, tcpflag::kSyn), 0.0);
    s.push(Session::fromServer(0, 1, tcpflag::kSyn | kAck), 1.0);
    for (int i = 0; i < 300; ++i) {
        const auto step = static_cast<uint32_t>(i);
        s.push(Session::fromClient(1 + 100 * step, 1 + 300 * step, kAckPsh, 100), 2.0 + i * 10.0);
        s.push(Session::fromServer(1 + 300 * step, 101 + 100 * step, kAckPsh, 300), 3.0 + i * 10.0);
    }
    s.finish();
    CHECK(s.findings(FindingKind::CaptureQuality).empty());
}

TEST_CASE("a large share of the acknowledged data missing, in connections begun before the capture",
          "[detect][quality]") {
    // The server's segments of 1448 B, every other one missing from the file; the client ACKs all.
    const auto download = [](bool holesFilledLater) {
        QualitySession s;
        uint32_t seq = 1;
        for (int i = 0; i < 20; ++i, seq += 2 * 1448) {
            s.push(Session::fromServer(seq, 1, kAck, 1448), i * 10.0);
            if (holesFilledLater) {  // the hole's segment arrives late: reordered, not lost to the file
                s.push(Session::fromServer(seq + 1448, 1, kAck, 1448), i * 10.0 + 0.5);
            }
            s.push(Session::fromClient(1, seq + 2 * 1448, kAck), i * 10.0 + 1);
        }
        s.finish();
        return s.findings(FindingKind::CaptureQuality);
    };
    const std::vector<Finding> thinned = download(false);
    REQUIRE(thinned.size() == 1);
    CHECK(thinned.front().evidence["unseen_bytes"] == 20 * 1448);
    CHECK(thinned.front().evidence["unseen_gaps"] == 20);
    CHECK_THAT(thinned.front().summary, Catch::Contains("28,960 B of the 57,920 B the receivers acknowledged "
                                                        "(50.0%) never reached the file, in 20 gaps"));
    CHECK(download(true).empty());
}

TEST_CASE("two recordings joined: a connection left waiting, days later a new set of connections",
          "[detect][quality][join]") {
    const auto joined = [](bool requestAnswered, bool sameConnectionAfter) {
        QualitySession s;
        s.handshake(0, 0, 0);
        s.push(Session::fromServer(1, 1, kAckPsh, 82), 3);   // a greeting
        s.push(Session::fromClient(1, 83, kAckPsh, 82), 4);  // the login, waiting for its ACK
        if (requestAnswered) {
            s.push(Session::fromServer(83, 83, kAck), 5);
        }
        const double later = 13 * kDayMs;
        if (sameConnectionAfter) {
            s.push(Session::fromClient(1, 83, kAckPsh, 82), later);
        } else {
            s.push(segmentBetween("10.0.0.7", 50000, "10.0.0.8", 80, 0, 0, tcpflag::kSyn), later);
            s.push(segmentBetween("10.0.0.8", 80, "10.0.0.7", 50000, 0, 1, tcpflag::kSyn | kAck), later + 3);
            s.push(segmentBetween("10.0.0.7", 50000, "10.0.0.8", 80, 1, 1, kAckPsh, 400), later + 4);
        }
        s.finish();
        return s.findings(FindingKind::CaptureQuality);
    };
    const std::vector<Finding> found = joined(false, false);
    REQUIRE(found.size() == 1);
    CHECK(found.front().severity == Severity::Warning);
    CHECK(found.front().evidence["joins"][0]["frame"] == 6);
    CHECK(found.front().evidence["joins"][0]["waiting"] == 1);
    CHECK_THAT(found.front().summary,
               Catch::Contains("two recordings are joined at frame 6: time steps forward 13.0 days, and none of the "
                               "1 connection seen before it shows again though 1 was waiting"));
    CHECK(joined(true, false).empty());  // nothing waited: a quiet time, whatever its length
    CHECK(joined(false, true).empty());  // the connection goes on: the host slept, the capture did not stop
}

TEST_CASE("a clock that jumps forward by decades, inside a connection", "[detect][quality][join]") {
    QualitySession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 54 * 365.25 * kDayMs);
    s.push(Session::fromServer(1, 101, kAckPsh, 200), 54 * 365.25 * kDayMs + 1);
    s.push(Session::fromClient(101, 201, kAck), 54 * 365.25 * kDayMs + 2);
    s.finish();
    const Finding finding = s.onlyFinding(FindingKind::CaptureQuality);
    CHECK(finding.evidence["clock_jumps"][0]["frame"] == 5);
    CHECK_FALSE(finding.evidence.contains("joins"));
    CHECK_THAT(finding.summary, Catch::Contains("the clock jumps forward by 54.0 years at frame 5"));
}

TEST_CASE("a few copies are information, a share of them a warning", "[detect][quality]") {
    const auto withCopies = [](int copies) {
        QualitySession s;
        uint16_t id = 1;
        for (int i = 0; i < 600; ++i) {
            const auto step = static_cast<uint32_t>(i);
            SegmentSpec spec = Session::fromClient(1 + 10 * step, 1, kAckPsh, 10);
            spec.ipId = id++;
            s.push(spec, i * 1.0);
            if (i < copies) {
                s.push(spec, i * 1.0 + 0.01);
            }
            s.push(Session::fromServer(1, 11 + 10 * step, kAck), i * 1.0 + 0.5);
        }
        s.finish();
        return s.onlyFinding(FindingKind::CaptureQuality);
    };
    const Finding few = withCopies(6);
    CHECK(few.severity == Severity::Info);
    CHECK(few.summary ==
          "The capture holds some packets twice, too few to mislead the analysis: 6 of 1206 TCP "
          "packets (0.5%) are copies of an earlier packet (captured on several interfaces or points, "
          "or a file holding its trace twice) and were left out of the analysis.");
    const Finding many = withCopies(24);
    CHECK(many.severity == Severity::Warning);
    CHECK_THAT(many.summary, Catch::Contains("24 of 1224 TCP packets (2%) are copies"));
}

TEST_CASE("a segment missing in the middle of a connection whose handshake was captured, acknowledged all the same",
          "[detect][quality]") {
    const auto download = [](bool holeFilled) {
        QualitySession s;
        s.handshake(0, 0, 0);
        s.push(Session::fromServer(1, 1, kAck, 1448), 10);
        s.push(Session::fromServer(2897, 1, kAck, 1448), 11);  // 1449-2897 is not in the file
        if (holeFilled) {
            s.push(Session::fromServer(1449, 1, kAck, 1448), 11.5);  // it came, out of order
        }
        s.push(Session::fromClient(1, 4345, kAck), 12);  // the client had all of it
        s.finish();
        return s.findings(FindingKind::CaptureQuality);
    };
    const std::vector<Finding> missing = download(false);
    REQUIRE(missing.size() == 1);
    CHECK(missing.front().evidence["unseen_bytes_in_started_connections"] == 1448);
    CHECK_THAT(missing.front().summary, Catch::Contains("in 1 connection whose handshake the file holds, 1,448 B in 1 "
                                                        "gap were acknowledged by the receiver but never captured"));
    CHECK(download(true).empty());
}
