#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "detect/detector.hpp"
#include "finding/finding_impact.hpp"

namespace tcpscope {

/// Finds the time a sender could not send because the receiver's window was closed: from the
/// receiver's first zero-window advertisement until it announces a non-zero window again (a
/// window update, or any segment with a window), or until a RST or the end of the capture.
/// One `zero_window_stall` finding per connection and receiving side, growing with every
/// period: how many, the time they cost, the longest, and the sender's zero-window probes.
/// A period still open is shown as `ongoing` as soon as it is longer than the threshold: at the
/// sender's next probe, or on a live capture at the next clock tick (onClock; a finding the clock
/// alone shows is provisional until a packet confirms it, and withdrawn if the period ends sooner
/// than the threshold by the packets' times).
/// The findings are written from the detector's Totals when they are read (FindingAuthor), not
/// rebuilt as JSON at every period: W3's zero-window storms and W1's 9,546 findings held 25 MB of
/// evidence trees during the load.
class ZeroWindowStallDetector final : public Detector, private FindingAuthor {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    void onClock(int64_t nowNs) override;
    void onEnd(int64_t lastTsNs) override;

private:
    static constexpr uint32_t kNoTotals = UINT32_MAX;

    // The window one side advertises.
    struct ReceiverState {
        int64_t closedTsNs = 0;
        uint32_t closedFrame = 0;
        uint32_t probes = 0;  // zero-window probes from the sender in this period
        uint32_t firstProbeFrame = 0;
        uint32_t totals = kNoTotals;  // index in totals_ once this side has a finding
        bool closed = false;
    };

    // One period the finding lists (the first kMaxListedStalls).
    struct Period {
        int64_t closedTsNs = 0;
        int64_t closedNs = 0;
        uint32_t closedFrame = 0;
        uint32_t firstProbeFrame = 0;  // with probes > 0
        uint32_t endFrame = 0;         // 0: the capture ended first
        uint32_t probes = 0;
        const char* endedBy = "";      // a string literal
    };

    // The finding of one receiving side, and what it adds up.
    struct Totals {
        uint32_t connection = 0;
        Side receiver = Side::Client;
        uint32_t findingId = 0;
        uint32_t stalls = 0;
        uint32_t probes = 0;
        int64_t closedNs = 0;
        int64_t longestNs = 0;
        int64_t firstTsNs = 0;  // the finding's start
        int64_t lifeNs = 1;     // of the connection, as last seen
        Endpoint receiverEndpoint;
        Endpoint senderEndpoint;
        std::vector<Period> listed;
        WaitTally waits;  // every period
        // The period going on, once longer than the threshold (`ongoing`): shown as `ongoingNs` so
        // far, closed since ongoingFrame (at ongoingSinceNs), with ongoingProbes probes.
        int64_t ongoingNs = 0;
        int64_t ongoingSinceNs = 0;
        uint32_t ongoingFrame = 0;
        uint32_t ongoingProbes = 0;
        bool ongoing = false;
    };

    // Both sides of a connection that has had a zero window.
    struct Sides {
        uint32_t connection = 0;
        std::array<ReceiverState, 2> states;
        ReceiverState& of(Side side) { return states[sideIndex(side)]; }
    };

    // The finding of `receiver`, made if it has none; by the clock a provisional one, and a
    // provisional one is confirmed when a packet gets here.
    Totals& ensureFinding(const ConnectionSnapshot& connection, Side receiver, ReceiverState& state,
                          bool byClock = false);
    // A finding for `totals` as add() takes it, starting with the period of `state`.
    static Finding newFinding(Totals& totals, const ReceiverState& state);
    void endPeriod(const ConnectionSnapshot& connection, Side receiver, ReceiverState& state, uint32_t endFrame,
                   int64_t endTsNs, const char* endedBy);
    void showOngoing(const ConnectionSnapshot& connection, Side receiver, ReceiverState& state, int64_t nowTsNs,
                     bool byClock = false);
    // Tells the log that the finding of `totals` changed; a provisional one, which has no author
    // until a packet confirms it, is written here.
    void changed(const Totals& totals);
    void describe(uint32_t record, Finding& finding, Detail detail) const override;
    void measure(uint32_t record, Finding& finding) const override;
    // The parts of the finding of `totals` measure() writes (write() writes them too).
    static void measure(const Totals& totals, Finding& finding);
    // Writes the finding of `totals` (and of its period going on, if any).
    static nlohmann::json evidence(const Totals& totals, const Finding& finding);
    static void write(const Totals& totals, Finding& finding, Detail detail);

    absl::flat_hash_map<uint32_t, uint32_t> sidesIndex_;  // connection id -> index in sides_
    std::vector<bool> withSides_;                         // by connection id: has an entry in sidesIndex_
    std::vector<Sides> sides_;                            // in order of the first zero window
    std::vector<Totals> totals_;
    int64_t clockNs_ = 0;  // the last onClock() time: with the segment's time, the engine's clockNs() then
    uint32_t closedSides_ = 0;  // receivers whose window is closed now (onClock has nothing to do without)
};

}  // namespace tcpscope
