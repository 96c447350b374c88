#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>
#include <vector>

#include "detect/detector.hpp"
#include "detect/support/connection_states.hpp"
#include "finding/finding_impact.hpp"
#include "tcp/chunked_store.hpp"

namespace tcpscope {

/// Finds Nagle's algorithm meeting the peer's delayed ACK: a small segment P goes out, the
/// sender's next small segment D waits because P is unacknowledged, the peer ACKs P only when
/// its delayed-ACK timer fires (40 ms on Linux, 200 ms on Windows), and D leaves right after
/// that ACK. One `delayed_ack_stall` finding per connection and sending side, growing with
/// every stall: how many, the time they cost, the share of the connection's life.
///
/// Each candidate is judged from where the capture was taken (the round trip from the capture
/// point to each end, from the handshake, or the quickest ACK seen without one), ruling out what
/// else looks the same on the wire:
/// - the ACK must be late beyond that round trip by a delayed-ACK timer (at least the floor, at
///   most the 500 ms RFC 1122 allows: a longer "delay" is a capture that missed packets);
/// - D must leave within the round trip to the sender after the ACK (plus the release margin);
/// - no data from the peer between P and D: D may be the application's answer to it
///   (request/response: FTP commands, TLS handshakes, HTTP keep-alive, echoes);
/// - D is smaller than the MSS (Nagle never holds a full segment: that is a cwnd-limited sender);
/// - the ACK covers no data the capture never saw.
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
        int64_t ackLateNs = 0;      // how much later than the round trip to the receiver the ACK came
        int64_t receiverLegNs = 0;  // that round trip, as judged
        bool smallPending = false;  // P is unacknowledged
        bool ackSeen = false;       // the late ACK of P came (never both)
        bool peerSpoke = false;     // the peer sent data after P: D may be the answer to it
    };
    static constexpr uint32_t kNoPending = RecordPool<Pending>::kNone;

    // What one sending side of one connection keeps (16 B, one per side of every connection; what
    // only a side with a stall needs is in its Totals, found through totalsOf_).
    struct SenderState {
        uint32_t largestSegment = 0;
        uint32_t pending = kNoPending;  // in pending_
        uint32_t highestEnd = 0;        // sequence end of the highest data this side sent
        uint32_t quickestAckUs = UINT32_MAX;  // the quickest the peer ACKed this side's small data (capture point's view)
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
        int64_t ackLateNs = 0;
        int64_t receiverLegNs = 0;
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
        int64_t receiverLegNs = -1;  // round trip from the capture point to the receiver, from the handshake
        int64_t senderLegNs = -1;    // and to the sender
        std::vector<Stall> listed;   // the first stalls
        WaitTally waits;             // every stall
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
    // The round trip from the capture point to the receiver of `sender`'s data and back: from the
    // handshake, else the quickest ACK of the side's small data seen so far; -1 if neither.
    [[nodiscard]] static int64_t receiverLegNs(const ConnectionSnapshot& connection, Side sender,
                                               const SenderState& state);
    void recordStall(const SegmentEvent& held, const Pending& pending);
    void releasePending(SenderState& state);
    // The sentence of the summary that says why this is Nagle and not a look-alike.
    static std::string whyNagle(const Totals& totals);
    static nlohmann::json evidence(const Totals& totals, double heldMs, double share);
    void describe(uint32_t record, Finding& finding, Detail detail) const override;
    void measure(uint32_t record, Finding& finding) const override;

    ConnectionStates<SenderState, 2> states_;  // [connection id * 2 + side]
    RecordPool<Pending> pending_;
    ChunkedStore<Totals, 256> totals_;  // chunks: growing never copies them; in the spill file while one is on
    absl::flat_hash_map<uint32_t, uint32_t> totalsOf_;  // connection id * 2 + side -> index in totals_
};

}  // namespace tcpscope
