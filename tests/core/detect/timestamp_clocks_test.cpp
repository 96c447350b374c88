// Frame times against the hosts' TCP timestamp clocks (TimestampClocks): when both hosts' clocks
// tick in a way no steady clock can match the file's times, the times were rewritten; the
// retransmission is not timed and capture_quality says why. One host alone (an injector's clock)
// or consistent times change nothing.
#include "detect/timestamp_clocks.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string_view>
#include <vector>

#include "../tcp/session.hpp"
#include "detect/detector_set.hpp"

using namespace tcpscope;
using namespace tcpscope::test;

namespace {

constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;

SegmentSpec stamped(SegmentSpec spec, uint32_t tsVal) {
    spec.options.hasTimestamp = true;
    spec.options.tsVal = tsVal;
    return spec;
}

// When each packet of one exchange was captured (ms) and what each host's clock said: the server
// sends 100 B three times, the third is lost and resent by its timer, the client ACKs.
struct Exchange {
    double data1, ack1, data2, ack2, lost, resend, ack3;
    uint32_t serverTs[4];  // data1, data2, lost, resend
    uint32_t clientTs[3];  // ack1, ack2, ack3
};

struct Analysed {
    FindingList findings;
    size_t count(FindingKind kind) const {
        return static_cast<size_t>(std::count_if(findings.begin(), findings.end(),
                                                 [kind](const Finding& finding) { return finding.kind == kind; }));
    }
    const Finding& only(FindingKind kind) const {
        REQUIRE(count(kind) == 1);
        return *std::find_if(findings.begin(), findings.end(),
                             [kind](const Finding& finding) { return finding.kind == kind; });
    }
};

Analysed analyse(const Exchange& x) {
    Session s;
    FindingLog log;
    const DetectorSet detectors(s.engine, DetectorOptions{}, log);
    s.handshake(0, 0, 0);
    s.push(stamped(Session::fromServer(1, 1, kAckPsh, 100), x.serverTs[0]), x.data1);
    s.push(stamped(Session::fromClient(1, 101, kAck), x.clientTs[0]), x.ack1);
    s.push(stamped(Session::fromServer(101, 1, kAckPsh, 100), x.serverTs[1]), x.data2);
    s.push(stamped(Session::fromClient(1, 201, kAck), x.clientTs[1]), x.ack2);
    s.push(stamped(Session::fromServer(201, 1, kAckPsh, 100), x.serverTs[2]), x.lost);
    s.push(stamped(Session::fromServer(201, 1, kAckPsh, 100), x.serverTs[3]), x.resend);
    s.push(stamped(Session::fromClient(1, 301, kAck), x.clientTs[2]), x.ack3);
    s.engine.finish();
    s.engine.clearObservers();
    return Analysed{log.release()};
}

}  // namespace

TEST_CASE("both hosts' clocks contradict the frame times: not timed, and said", "[detect][quality][clock]") {
    // As in a test trace whose times were made up: 50 ticks of each clock in 0.2 ms, then 51 in 1 s.
    const Analysed result =
        analyse(Exchange{10.0, 10.0, 10.2, 10.2, 10.3, 1010.3, 1011.3, {1000, 1050, 1050, 1101}, {5000, 5050, 5101}});
    CHECK(result.count(FindingKind::RetransmissionStall) == 0);
    const Finding& quality = result.only(FindingKind::CaptureQuality);
    CHECK(quality.evidence["clock_contradicted_connections"] == 1);
    // The best single rate (101 ticks in 1001.3 ms) leaves about 495 ms of one interval unexplained.
    CHECK(quality.evidence["largest_clock_disagreement_ms"].get<double>() == Approx(495).margin(5));
    CHECK(quality.summary.find("disagree with both hosts' TCP timestamp clocks") != std::string::npos);
    CHECK(quality.summary.find("rewrote its times") != std::string::npos);
}

TEST_CASE("clocks that tick with the frame times: the timeout is timed as always", "[detect][quality][clock]") {
    // 1 ms ticks on both hosts, a 200 ms retransmission timeout.
    const Analysed result =
        analyse(Exchange{10.0, 11.0, 60.0, 61.0, 61.0, 261.0, 262.0, {1000, 1050, 1051, 1251}, {5001, 5051, 5252}});
    CHECK(result.count(FindingKind::CaptureQuality) == 0);
    const Finding& stall = result.only(FindingKind::RetransmissionStall);
    CHECK(stall.evidence["lost_ms"].get<double>() == Approx(200).margin(0.01));
}

TEST_CASE("one host's clock jumping (an injector's packets) is no contradiction", "[detect][quality][clock]") {
    // The server's clock jumps as above, the client's ticks with the frame times (1 ms).
    const Analysed result =
        analyse(Exchange{10.0, 10.0, 10.2, 10.2, 10.3, 1010.3, 1011.3, {1000, 1050, 1050, 1101}, {5000, 5000, 6001}});
    CHECK(result.count(FindingKind::CaptureQuality) == 0);
    CHECK(result.count(FindingKind::RetransmissionStall) == 1);
}

TEST_CASE("the disagreement needs at least kMinTicks in each interval", "[detect][quality][clock]") {
    // The same made-up times, but clocks that ticked too few times to tell their rate.
    const Analysed result =
        analyse(Exchange{10.0, 10.0, 10.2, 10.2, 10.3, 1010.3, 1011.3, {1000, 1005, 1005, 1010}, {5000, 5005, 5010}});
    CHECK(result.count(FindingKind::CaptureQuality) == 0);
    CHECK(result.count(FindingKind::RetransmissionStall) == 1);
}
