#pragma once
#include <absl/container/flat_hash_map.h>

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
class DelayedAckDetector final : public Detector, private FindingAuthor {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    /// Asks for the memory onSegment(event) will read (DetectorSet calls it for every detector
    /// before any of them runs, so that their cache misses overlap instead of following each other).
    void prefetch(const SegmentEvent& event) const;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;
    /// Sides holding a small segment waiting for its ACK, or the late ACK of one (for tests).
    [[nodiscard]] size_t pendingHeld() const { return pending_.inUse(); }

private:
    // P, the last small data segment of a side while it is unacknowledged, then the peer's late
    // pure ACK of it until the side's next data segment (which is D if it is small and soon).
    // Only the sides in one of those two moments have one (in pending_).
    struct Pending {
        int64_t smallTsNs = 0;
        int64_t ackTsNs = 0;
        uint32_t smallFrame = 0;
        uint32_t smallEndSeq = 0;
        uint32_t smallLength = 0;
        uint32_t ackFrame = 0;
        bool smallPending = false;  // P is unacknowledged
        bool ackSeen = false;       // the late ACK of P came (never both)
    };
    static constexpr uint32_t kNoPending = RecordPool<Pending>::kNone;

    // What one sending side of one connection keeps (8 B, one per side of every connection; what
    // only a side with a stall needs is in its Totals, found through totalsOf_).
    struct SenderState {
        uint32_t largestSegment = 0;
        uint32_t pending = kNoPending;  // in pending_
    };

    // One stall: P, the late ACK and D.
    struct Stall {
        uint32_t smallFrame = 0;
        uint32_t ackFrame = 0;
        uint32_t heldFrame = 0;
        uint32_t previousBytes = 0;
        uint32_t heldBytes = 0;
        int64_t smallTsNs = 0;
        int64_t ackTsNs = 0;
        int64_t heldTsNs = 0;
    };

    // The finding of one sending side, and what it adds up.
    struct Totals {
        uint32_t findingId = 0;
        uint32_t stalls = 0;
        int64_t heldNs = 0;
        int64_t firstTsNs = 0;  // the finding's start: P of the first stall
        int64_t lifeNs = 1;     // of the connection, as last seen
        Side sender = Side::Client;
        Endpoint senderEndpoint;
        Endpoint receiverEndpoint;
        std::vector<Stall> listed;  // the first stalls
    };

    SenderState& stateOf(uint32_t connection, Side side);
    // The key of a connection's side in totalsOf_.
    static uint32_t sideKey(uint32_t connection, Side side) {
        return connection * 2 + static_cast<uint32_t>(sideIndex(side));
    }
    // Updates the share of the connection's life the side's finding cost (its life is final).
    void refreshLife(uint32_t totalsIndex, const Connection& connection);
    [[nodiscard]] bool isSmall(const ConnectionSnapshot& connection, Side sender, uint32_t length,
                               const SenderState& state) const;
    void recordStall(const SegmentEvent& held, const Pending& pending);
    void releasePending(SenderState& state);
    void describe(uint32_t record, Finding& finding) const override;
    void measure(uint32_t record, Finding& finding) const override;

    ConnectionStates<SenderState, 2> states_;  // [connection id * 2 + side]
    RecordPool<Pending> pending_;
    std::vector<Totals> totals_;
    absl::flat_hash_map<uint32_t, uint32_t> totalsOf_;  // connection id * 2 + side -> index in totals_
};

}  // namespace tcpscope
