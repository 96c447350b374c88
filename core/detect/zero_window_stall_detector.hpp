#pragma once
#include <cstdint>
#include <vector>

#include "detect/connection_states.hpp"
#include "detect/detector.hpp"

namespace tcpscope {

/// Finds the time a sender could not send because the receiver's window was closed: from the
/// receiver's first zero-window advertisement until it announces a non-zero window again (a
/// window update, or any segment with a window), or until a RST or the end of the capture.
/// One `zero_window_stall` finding per connection and receiving side, growing with every
/// period: how many, the time they cost, the longest, and the sender's zero-window probes.
/// A period still open is shown as `ongoing` as soon as it is longer than the threshold.
class ZeroWindowStallDetector : public Detector {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    void onEnd(int64_t lastTsNs) override;

private:
    static constexpr uint32_t kNoTotals = UINT32_MAX;

    // The window one side advertises (kept small: one per side of every connection).
    struct ReceiverState {
        int64_t closedTsNs = 0;
        uint32_t closedFrame = 0;
        uint32_t probes = 0;  // zero-window probes from the sender in this period
        uint32_t firstProbeFrame = 0;
        uint32_t totals = kNoTotals;  // index in totals_ once this side has a finding
        bool closed = false;
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
    };

    ReceiverState& stateOf(uint32_t connection, Side side);
    Totals& ensureFinding(const Connection& connection, Side receiver, ReceiverState& state);
    void endPeriod(const Connection& connection, Side receiver, ReceiverState& state, uint32_t endFrame,
                   int64_t endTsNs, const char* endedBy);
    void showOngoing(const Connection& connection, Side receiver, ReceiverState& state, int64_t nowTsNs);
    void refreshSummary(const Connection& connection, const Totals& totals, const ReceiverState& state,
                        int64_t ongoingNs);

    ConnectionStates<ReceiverState, 2> states_;  // [connection id * 2 + side]
    std::vector<Totals> totals_;
};

}  // namespace tcpscope
