// AnalysisEngine::advanceClock: the capture clock a live capture drives between packets never
// goes back, neither before the last packet nor before the last time given.
#include <vector>

#include <catch2/catch.hpp>

#include "../tcp/session.hpp"
#include "engine/segment_observer.hpp"

using namespace tcpscope;
using tcpscope::test::Session;

namespace {

constexpr uint16_t kAckPsh = tcpflag::kAck | tcpflag::kPsh;

// Records what the engine tells its observers about time.
struct ClockRecorder : SegmentObserver {
    void onSegment(const SegmentEvent& event) override { segmentTimes.push_back(event.tsNs); }
    void onClock(int64_t nowNs) override { clockTimes.push_back(nowNs); }
    void onEnd(int64_t lastTsNs) override { endTimes.push_back(lastTsNs); }
    std::vector<int64_t> segmentTimes;
    std::vector<int64_t> clockTimes;
    std::vector<int64_t> endTimes;
};

int64_t at(double ms) { return Session::kStartNs + static_cast<int64_t>(ms * Session::kMs); }

}  // namespace

TEST_CASE("advanceClock is monotonic: never before the last packet, never before the last time given",
          "[engine][clock]") {
    Session s;
    ClockRecorder recorder;
    s.engine.addObserver(&recorder);
    s.handshake(0, 0, 0);
    s.push(Session::fromClient(1, 1, kAckPsh, 100), 10);
    CHECK(s.engine.clockNs() == at(10));

    CHECK(s.engine.advanceClock(at(5)) == at(10));  // a clock behind the last packet is raised to it
    CHECK(s.engine.advanceClock(at(300)) == at(300));
    CHECK(s.engine.advanceClock(at(250)) == at(300));  // never back
    CHECK(s.engine.clockNs() == at(300));
    // A packet stamped before the clock (it waited in a queue) does not move the clock back.
    s.push(Session::fromServer(1, 101, tcpflag::kAck), 290);
    CHECK(s.engine.clockNs() == at(300));
    s.push(Session::fromClient(101, 1, kAckPsh, 100), 400);
    CHECK(s.engine.clockNs() == at(400));
    CHECK(s.engine.advanceClock(at(350)) == at(400));
    s.engine.finish();

    CHECK(recorder.clockTimes == std::vector<int64_t>{at(10), at(300), at(300), at(400)});
    // The end of the input is still the last packet's time, whatever the clock said.
    CHECK(recorder.endTimes == std::vector<int64_t>{at(400)});
    CHECK(recorder.segmentTimes.size() == 6);
}
