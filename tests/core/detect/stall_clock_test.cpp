// Stalls still going on, shown by the capture clock (onClock) before the packet that ends them:
// zero_window_stall and retransmission_stall with segments built in code, and the FindingLog's
// provisional findings (confirmed in the order a file's analysis makes them, or withdrawn).
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <initializer_list>
#include <vector>

#include "detect/retransmission_stall_detector.hpp"
#include "detect/zero_window_stall_detector.hpp"
#include "stall_test_session.hpp"

using namespace tcpscope;
using tcpscope::test::SegmentSpec;
using tcpscope::test::Session;

namespace {

constexpr uint16_t kAck = tcpflag::kAck;
constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;

using WindowSession = tcpscope::test::DetectorSession<ZeroWindowStallDetector>;
using RetransmissionSession = tcpscope::test::DetectorSession<RetransmissionStallDetector>;

int64_t at(double ms) { return Session::kStartNs + static_cast<int64_t>(ms * Session::kMs); }

SegmentSpec closedWindow(SegmentSpec spec) {
    spec.window = 0;
    return spec;
}

// Everything of a finding the report shows.
void checkSameFindings(const FindingList& live, const FindingList& file) {
    REQUIRE(live.size() == file.size());
    for (size_t index = 0; index < live.size(); ++index) {
        INFO("finding " << index);
        CHECK(live[index].id == file[index].id);
        CHECK(live[index].kind == file[index].kind);
        CHECK(live[index].connection == file[index].connection);
        CHECK(live[index].tsNs == file[index].tsNs);
        CHECK(live[index].durationMs == file[index].durationMs);
        CHECK(live[index].frames == file[index].frames);
        CHECK(live[index].summary == file[index].summary);
        CHECK(live[index].evidence == file[index].evidence);
        CHECK_FALSE(live[index].ongoing);
        CHECK_FALSE(live[index].provisional);
    }
}

// A window closed at 11 ms, probed at 611 ms, open again at 900 ms; `clock` ticks between.
void closedWindowConversation(WindowSession& s, bool clock) {
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(closedWindow(Session::fromServer(1, 101, kAck)), 11);
    if (clock) {
        s.engine.advanceClock(at(15));
        CHECK(s.log.all().empty());  // 4 ms: not yet longer than the 10 ms threshold
        s.engine.advanceClock(at(261));
        REQUIRE(s.log.all().size() == 1);
        const Finding& shown = s.log.all().front();
        CHECK(shown.kind == FindingKind::ZeroWindowStall);
        CHECK(shown.ongoing);
        CHECK(shown.provisional);
        CHECK(shown.durationMs == Approx(250));
        CHECK(shown.evidence["ongoing"]["closed_ms"].get<double>() == Approx(250));
        CHECK_THAT(shown.summary, Catch::Contains("for 250.0 ms"));
        s.engine.advanceClock(at(511));
        CHECK(s.log.all().front().durationMs == Approx(500));  // it grows while no packet comes
    }
    s.push(Session::fromClient(101, 1, kAck, 1), 611);  // the sender's probe
    if (clock) {
        CHECK_FALSE(s.log.all().front().provisional);  // a packet confirmed it
        CHECK(s.log.all().front().ongoing);
        s.engine.advanceClock(at(800));
        CHECK(s.log.all().front().durationMs == Approx(789));
    }
    s.push(closedWindow(Session::fromServer(1, 101, kAck)), 612);
    s.push(Session::fromServer(1, 101, kAck), 900);  // window open again
    if (clock) {
        CHECK_FALSE(s.log.all().front().ongoing);
        CHECK(s.log.all().front().durationMs == Approx(889));
        s.engine.advanceClock(at(2000));  // nothing is closed any more
        CHECK(s.log.all().front().durationMs == Approx(889));
    }
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 901);
    s.finish();
}

}  // namespace

TEST_CASE("zero window: the clock shows a closed window before any probe, the packets confirm and end it",
          "[detect][zerowindow][clock]") {
    WindowSession live;
    closedWindowConversation(live, true);
    WindowSession file;
    closedWindowConversation(file, false);
    checkSameFindings(live.log.release(), file.log.release());
}

TEST_CASE("zero window: a period the clock showed but the packets end sooner is withdrawn",
          "[detect][zerowindow][clock]") {
    WindowSession s;
    std::vector<std::pair<bool, bool>> heard;  // (provisional, withdrawn) per listener call
    s.log.setListener(
        [&heard](const Finding& finding, bool) { heard.emplace_back(finding.provisional, finding.withdrawn); });
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(closedWindow(Session::fromServer(1, 101, kAck)), 11);
    s.engine.advanceClock(at(40));
    REQUIRE(s.log.all().size() == 1);
    CHECK(s.log.all().front().provisional);
    // The window update was captured at 15 ms but reached the analysis after the clock's tick.
    s.push(Session::fromServer(1, 101, kAck), 15);
    CHECK(s.log.all().front().withdrawn);
    CHECK_FALSE(s.log.all().front().ongoing);
    CHECK(heard.back() == std::pair{false, true});
    s.finish();
    CHECK(s.log.release().empty());  // as the file's analysis: a 4 ms closed window is no stall
}

TEST_CASE("zero window: a window still closed at the end is finalised there as without the clock",
          "[detect][zerowindow][clock]") {
    auto conversation = [](WindowSession& s, bool clock) {
        s.handshake(0, 0, 0);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
        s.push(closedWindow(Session::fromServer(1, 101, kAck)), 11);
        if (clock) {
            s.engine.advanceClock(at(200));
        }
        s.push(Session::fromClient(101, 1, kAck, 1), 300);
        if (clock) {
            s.engine.advanceClock(at(5000));  // the capture goes on; no packet of this connection
            CHECK(s.log.all().front().durationMs == Approx(4989));
        }
        s.finish();
    };
    WindowSession live;
    conversation(live, true);
    WindowSession file;
    conversation(file, false);
    const FindingList released = live.log.release();
    CHECK(released.front().durationMs == Approx(289));  // until the connection's last packet
    checkSameFindings(released, file.log.release());
}

TEST_CASE("retransmission: unacknowledged data shows as an ongoing stall until the ACK of the retransmission confirms it",
          "[detect][rto][clock]") {
    auto conversation = [](RetransmissionSession& s, bool clock) {
        s.handshake(0, 0, 0);
        s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
        s.push(Session::fromServer(1, 101, kAck), 11);
        s.push(Session::fromClient(101, 1, kAckPsh, 100), 20);  // lost
        if (clock) {
            s.engine.advanceClock(at(150));
            CHECK(s.log.all().empty());  // 130 ms: not yet a stall
            s.engine.advanceClock(at(300));
            REQUIRE(s.log.all().size() == 1);
            const Finding& shown = s.log.all().front();
            CHECK(shown.kind == FindingKind::RetransmissionStall);
            CHECK(shown.ongoing);
            CHECK(shown.provisional);
            CHECK(shown.durationMs == Approx(280));
            CHECK(shown.evidence["ongoing"]["unacknowledged_bytes"] == 100);
            CHECK_THAT(shown.summary, Catch::Contains("still waiting"));
        }
        CHECK(has(s.push(Session::fromClient(101, 1, kAckPsh, 100), 430), AnalysisFlag::Retransmission));
        // The ACK that follows tells whether the resend was needed (not spurious): it confirms the stall.
        s.push(Session::fromServer(1, 201, kAck), 431);
        if (clock) {
            CHECK_FALSE(s.log.all().front().ongoing);
            CHECK_FALSE(s.log.all().front().provisional);
        }
        s.finish();
    };
    RetransmissionSession live;
    conversation(live, true);
    RetransmissionSession file;
    conversation(file, false);
    const FindingList released = live.log.release();
    REQUIRE(released.size() == 1);
    CHECK(released.front().durationMs == Approx(410));
    checkSameFindings(released, file.log.release());
}

TEST_CASE("retransmission: an ongoing stall the ACK ends without a retransmission is withdrawn",
          "[detect][rto][clock]") {
    RetransmissionSession s;
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 20);
    s.engine.advanceClock(at(250));
    REQUIRE(s.log.all().size() == 1);
    CHECK(s.log.all().front().provisional);
    s.push(Session::fromServer(1, 201, kAck), 260);  // a slow ACK, no loss
    CHECK(s.log.all().front().withdrawn);
    s.finish();
    CHECK(s.log.release().empty());
}

// What a live capture's listener heard of a finding at its last change.
struct Heard {
    bool ongoing = false;
    double durationMs = 0;
};

// Whether the listener's last word on finding 0 is what the log describes now (all() describes it
// afresh): a live stream prints a stall's end and duration from what it heard.
template <typename DetectorSession>
void checkHeardIsCurrent(DetectorSession& s, const std::vector<Heard>& heard, double at) {
    INFO("after the change at " << at << " ms (change " << heard.size() << ")");
    REQUIRE_FALSE(heard.empty());
    const Finding& now = s.log.all().front();
    CHECK(heard.back().ongoing == now.ongoing);
    CHECK(heard.back().durationMs == now.durationMs);
}

// Advances the clock to each of `ticks` (ms) while a stall goes on: at each, the listener must
// have heard the finding as it is now, and going on.
template <typename DetectorSession>
void tickWhileOngoing(DetectorSession& s, const std::vector<Heard>& heard, std::initializer_list<double> ticks) {
    for (const double tick : ticks) {
        s.engine.advanceClock(at(tick));
        checkHeardIsCurrent(s, heard, tick);
        CHECK(heard.back().ongoing);
    }
}

TEST_CASE("retransmission: a live listener hears every change of a stall going on and its end, not only some",
          "[detect][rto][clock]") {
    RetransmissionSession s;
    std::vector<Heard> heard;
    s.log.setListener([&heard](const Finding& finding, bool) { heard.push_back({finding.ongoing, finding.durationMs}); });
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(Session::fromServer(1, 101, kAck), 11);
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 20);  // lost
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 430);  // the finding: a stall of 410 ms
    s.push(Session::fromServer(1, 201, kAck), 431);
    s.push(Session::fromClient(201, 1, kAckPsh, 100), 500);  // lost again
    tickWhileOngoing(s, heard, {750, 800, 850, 880, 890});
    s.push(Session::fromClient(201, 1, kAckPsh, 100), 900);  // the retransmission ends the second stall,
    s.push(Session::fromServer(1, 301, kAck), 901);          // its ACK shows it was needed
    checkHeardIsCurrent(s, heard, 901);
    CHECK_FALSE(heard.back().ongoing);
    CHECK(heard.back().durationMs == Approx(810));
    s.finish();
}

TEST_CASE("zero window: a live listener hears every change of a closed window going on and its end",
          "[detect][zerowindow][clock]") {
    WindowSession s;
    std::vector<Heard> heard;
    s.log.setListener([&heard](const Finding& finding, bool) { heard.push_back({finding.ongoing, finding.durationMs}); });
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    s.push(closedWindow(Session::fromServer(1, 101, kAck)), 11);
    s.push(Session::fromServer(1, 101, kAck), 111);  // the finding: closed for 100 ms
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 120);
    s.push(closedWindow(Session::fromServer(1, 201, kAck)), 121);
    tickWhileOngoing(s, heard, {200, 250, 300, 350, 400});
    s.push(Session::fromServer(1, 201, kAck), 421);  // open again: closed for 300 ms this time
    checkHeardIsCurrent(s, heard, 421);
    CHECK_FALSE(heard.back().ongoing);
    CHECK(heard.back().durationMs == Approx(400));
    s.finish();
}

TEST_CASE("finding log: provisional findings are released in the order packets confirmed them, or withdrawn",
          "[detect][clock]") {
    FindingLog log;
    std::vector<std::string> heard;
    log.setListener([&heard](const Finding& finding, bool isNew) {
        heard.push_back(fmt::format("{}{}{}", findingKindName(finding.kind), isNew ? " new" : "",
                                    finding.withdrawn ? " withdrawn" : ""));
    });
    Finding first;
    first.kind = FindingKind::PortReuse;
    CHECK(log.add(first) == 0);
    Finding waiting;
    waiting.kind = FindingKind::ZeroWindowStall;
    const uint32_t provisional = log.addProvisional(waiting);
    CHECK(log.isProvisional(provisional));
    CHECK(log.all()[provisional].ongoing);
    Finding second;
    second.kind = FindingKind::TimeWaitChurn;
    log.add(second);
    Finding never;
    never.kind = FindingKind::RetransmissionStall;
    log.addProvisional(never);
    Finding confirmed;
    confirmed.kind = FindingKind::DelayedAckStall;
    log.confirm(provisional, confirmed);
    log.changed(provisional);  // the detector's part, once it has completed the finding
    CHECK(log.all()[provisional].kind == FindingKind::DelayedAckStall);
    CHECK_FALSE(log.isProvisional(provisional));

    const FindingList released = log.release();
    REQUIRE(released.size() == 3);
    CHECK(released[0].kind == FindingKind::PortReuse);
    CHECK(released[1].kind == FindingKind::TimeWaitChurn);
    CHECK(released[2].kind == FindingKind::DelayedAckStall);  // where add() would have put it: at its confirmation
    for (uint32_t id = 0; id < released.size(); ++id) {
        CHECK(released[id].id == id);
    }
    CHECK(heard == std::vector<std::string>{"port_reuse new", "zero_window_stall new", "time_wait_churn new",
                                            "retransmission_stall new", "delayed_ack_stall",
                                            "retransmission_stall withdrawn"});
}
