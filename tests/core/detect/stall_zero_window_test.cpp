// zero_window_stall with segments built in code: a receiver that closes its window, the
// sender's probes (both styles), and how the period ends.
#include <catch2/catch.hpp>

#include "detect/zero_window_stall_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using tcpscope::test::SegmentSpec;
using tcpscope::test::Session;

namespace {

constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;

using WindowSession = tcpscope::test::DetectorSession<ZeroWindowStallDetector>;

SegmentSpec withWindow(SegmentSpec spec, uint16_t window) {
    spec.window = window;
    return spec;
}

Finding onlyFinding(const WindowSession& session) {
    return session.onlyFinding(FindingKind::ZeroWindowStall);
}

}  // namespace

TEST_CASE("a closed window with zero-window probes until the window update", "[detect][zerowindow]") {
    WindowSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    CHECK(has(s.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11), AnalysisFlag::ZeroWindow));
    const uint32_t closedFrame = s.lastFrame();
    CHECK(has(s.push(Session::fromClient(101, 1, kAck, 1), 211), AnalysisFlag::ZeroWindowProbe));
    const uint32_t probeFrame = s.lastFrame();
    s.push(withWindow(Session::fromServer(1, 101, kAck), 0), 212);
    s.push(Session::fromClient(101, 1, kAck, 1), 611);
    // Live: the period is shown while it lasts.
    REQUIRE(s.findings(FindingKind::ZeroWindowStall).size() == 1);
    CHECK(onlyFinding(s).evidence.contains("ongoing"));
    s.push(withWindow(Session::fromServer(1, 101, kAck), 0), 612);
    s.push(Session::fromServer(1, 101, kAck), 900);  // window 65535 again
    const uint32_t openFrame = s.lastFrame();
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 901);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.connection == 0);
    CHECK(finding.tsNs == Session::kStartNs + 11 * Session::kMs);
    CHECK(finding.durationMs == Approx(889));
    CHECK(finding.frames == std::vector<uint32_t>{closedFrame, probeFrame, openFrame});
    CHECK_FALSE(finding.evidence.contains("ongoing"));
    CHECK(finding.evidence["receiver"] == "10.0.0.2:80");
    CHECK(finding.evidence["receiver_side"] == "server");
    CHECK(finding.evidence["stalls"] == 1);
    CHECK(finding.evidence["probes"] == 2);
    CHECK(finding.evidence["longest_ms"].get<double>() == Approx(889));
    CHECK(finding.evidence["instances"][0]["ended_by"] == "window_update");
    CHECK_THAT(finding.summary, Catch::Contains("not reading from the socket fast enough"));
}

TEST_CASE("Linux's empty probes one byte back count as probes", "[detect][zerowindow]") {
    WindowSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11);
    CHECK(has(s.push(Session::fromClient(100, 1, kAck), 220), AnalysisFlag::KeepAlive));
    s.push(withWindow(Session::fromServer(1, 101, kAck), 0), 221);
    s.push(Session::fromClient(100, 1, kAck), 640);
    s.push(Session::fromServer(1, 101, kAck), 700);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["probes"] == 2);
    CHECK(finding.durationMs == Approx(689));
}

TEST_CASE("a window closed for less than the minimum is not a stall", "[detect][zerowindow]") {
    WindowSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11);
    s.push(Session::fromServer(1, 101, kAck), 16);
    s.finish();
    CHECK(s.findings(FindingKind::ZeroWindowStall).empty());

    DetectorOptions options;
    options.zeroWindowStallMinMs = 1;
    WindowSession strict(options);
    strict.handshake(0, 0, 0);
    strict.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    strict.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11);
    strict.push(Session::fromServer(1, 101, kAck), 16);
    strict.finish();
    CHECK(strict.findings(FindingKind::ZeroWindowStall).size() == 1);
}

TEST_CASE("several periods add up, each with its own instance", "[detect][zerowindow]") {
    WindowSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11);
    s.push(Session::fromServer(1, 101, kAck), 61);
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 62);
    s.push(withWindow(Session::fromServer(1, 201, kAck), 0), 63);
    s.push(Session::fromServer(1, 201, kAck), 163);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["stalls"] == 2);
    CHECK(finding.durationMs == Approx(150));
    CHECK(finding.evidence["longest_ms"].get<double>() == Approx(100));
    CHECK(finding.evidence["instances"].size() == 2);
}

TEST_CASE("a window still closed at the end of the capture, or closed until a reset", "[detect][zerowindow]") {
    WindowSession open;
    open.handshake(0, 0, 0);
    open.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    open.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11);
    open.push(Session::fromClient(101, 1, kAck, 1), 211);
    open.push(withWindow(Session::fromServer(1, 101, kAck), 0), 212);
    open.finish();
    const Finding stillClosed = onlyFinding(open);
    CHECK(stillClosed.durationMs == Approx(201));
    CHECK(stillClosed.evidence["instances"][0]["ended_by"] == "capture_end");

    WindowSession reset;
    reset.handshake(0, 0, 0);
    reset.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    reset.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11);
    reset.push(Session::fromClient(101, 1, tcpflag::kRst | kAck), 311);
    reset.finish();
    const Finding bySenderReset = onlyFinding(reset);  // the sender gave up on the closed window
    CHECK(bySenderReset.durationMs == Approx(300));
    CHECK(bySenderReset.evidence["instances"][0]["ended_by"] == "reset");

    WindowSession receiverReset;
    receiverReset.handshake(0, 0, 0);
    receiverReset.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    receiverReset.push(withWindow(Session::fromServer(1, 101, kAck), 0), 11);
    receiverReset.push(withWindow(Session::fromServer(1, 101, tcpflag::kRst | kAck), 0), 311);
    receiverReset.finish();
    const Finding byReset = onlyFinding(receiverReset);
    CHECK(byReset.durationMs == Approx(300));
    CHECK(byReset.evidence["instances"][0]["ended_by"] == "reset");
}

TEST_CASE("an IPv6 client that stops reading, with sequence numbers across the wraparound", "[detect][zerowindow]") {
    constexpr uint32_t kClientIsn = 0xFFFFFFF0u;
    constexpr uint32_t kServerIsn = 0xFFFFFF80u;
    WindowSession s;
    auto v6 = [](SegmentSpec spec) {
        const bool fromClient = spec.sourcePort == 40000;
        spec.source = fromClient ? "2001:db8::1" : "2001:db8::2";
        spec.destination = fromClient ? "2001:db8::2" : "2001:db8::1";
        return spec;
    };
    s.push(v6(Session::fromClient(kClientIsn, 0, tcpflag::kSyn)), 0);
    s.push(v6(Session::fromServer(kServerIsn, kClientIsn + 1, tcpflag::kSyn | kAck)), 1);
    s.push(v6(Session::fromClient(kClientIsn + 1, kServerIsn + 1, kAck)), 2);
    s.push(v6(Session::fromServer(kServerIsn + 1, kClientIsn + 1, kAckPsh, 1000)), 10);  // crosses the wrap
    CHECK(has(s.push(v6(withWindow(Session::fromClient(kClientIsn + 1, kServerIsn + 1001, kAck), 0)), 11),
              AnalysisFlag::ZeroWindow));
    CHECK(has(s.push(v6(Session::fromServer(kServerIsn + 1001, kClientIsn + 1, kAck, 1)), 300),
              AnalysisFlag::ZeroWindowProbe));
    s.push(v6(Session::fromClient(kClientIsn + 1, kServerIsn + 1001, kAck)), 400);
    s.finish();

    const Finding finding = onlyFinding(s);
    CHECK(finding.evidence["receiver"] == "[2001:db8::1]:40000");
    CHECK(finding.evidence["receiver_side"] == "client");
    CHECK(finding.evidence["probes"] == 1);
    CHECK(finding.durationMs == Approx(389));
}
