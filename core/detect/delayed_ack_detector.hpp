#pragma once
#include <cstdint>
#include <vector>

#include "detect/connection_states.hpp"
#include "detect/detector.hpp"

namespace tcpscope {

/// Finds Nagle's algorithm meeting the peer's delayed ACK: a small segment P goes out, the
/// sender's next small segment D waits because P is unacknowledged, the peer ACKs P only when
/// its delayed-ACK timer fires (40 ms on Linux, 200 ms on Windows), and D leaves right after
/// that ACK. One `delayed_ack_stall` finding per connection and sending side, growing with
/// every stall: how many, the time they cost, the share of the connection's life.
class DelayedAckDetector : public Detector {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    void onEnd(int64_t lastTsNs) override;

private:
    // What one sending side of one connection is doing.
    struct SenderState {
        // P: the last small data segment, while it is unacknowledged.
        bool smallPending = false;
        uint32_t smallFrame = 0;
        int64_t smallTsNs = 0;
        uint32_t smallEndSeq = 0;
        uint32_t smallLength = 0;
        // The peer's late pure ACK of P; the next small segment soon after it is D.
        bool ackSeen = false;
        uint32_t ackFrame = 0;
        int64_t ackTsNs = 0;
        uint32_t largestSegment = 0;
        // The finding for this side, once there is a stall.
        bool hasFinding = false;
        uint32_t findingId = 0;
        uint32_t stalls = 0;
        int64_t heldNs = 0;
    };

    SenderState& stateOf(uint32_t connection, Side side);
    [[nodiscard]] bool isSmall(const Connection& connection, Side sender, uint32_t length,
                               const SenderState& state) const;
    void recordStall(const SegmentEvent& held, SenderState& state);
    void refreshSummary(const Connection& connection, Side sender, SenderState& state);

    ConnectionStates<SenderState, 2> states_;  // [connection id * 2 + side]
};

}  // namespace tcpscope
