#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <vector>

#include "detect/detector.hpp"
#include "detect/path_mtu_resends.hpp"
#include "detect/support/connection_states.hpp"
#include "detect/support/small_vector.hpp"
#include "detect/timestamp_clocks.hpp"
#include "finding/finding_impact.hpp"
#include "tcp/chunked_store.hpp"

namespace tcpscope {

/// Finds the time a sender lost waiting for its retransmission timer: data that was not
/// acknowledged goes out again only when the RTO fires (a fast retransmission, triggered by
/// duplicate ACKs, does not count). The stall runs from the last transmission of that data to
/// its retransmission. Handshake retransmissions are left to syn_backlog_overflow and
/// port_reuse. Counted apart, as Wireshark does, and never as time lost: spurious
/// retransmissions (of data already acknowledged; or the ACK of the original arrives less than
/// half the round trip to the receiver after the resend, too soon to answer it; or a D-SACK says
/// the receiver had it), and FIN-only resends (all data was delivered, nobody waits). A
/// retransmission is judged at the first ACK that covers it (or when the connection or input
/// ends without one). One `retransmission_stall` finding per connection and sending side, growing
/// with every stall: how many, the time they cost, the longest.
/// On a live capture (onClock), data unacknowledged for longer than the threshold with no
/// retransmission yet shows as an ongoing stall: a provisional finding until the retransmission
/// confirms it, withdrawn if the ACK comes first.
/// Data resent after a router said its packet was too big (ICMP fragmentation needed, ICMPv6
/// packet too big) while it was in flight is path-MTU discovery, not a loss: PathMtuResends makes
/// those resends a `path_mtu` finding instead.
/// Where both hosts' TCP timestamp clocks contradict the frame times (TimestampClocks), a
/// retransmission is not timed at all: the capture's times are not real there (capture_quality
/// says so).
class RetransmissionStallDetector final : public Detector, private FindingAuthor {
public:
    using Detector::Detector;

    /// The clock check to consult (DetectorSet's); without one, every frame time is trusted.
    void useClocks(const TimestampClocks* clocks) { clocks_ = clocks; }

    void onSegment(const SegmentEvent& event) override;
    void onPacketTooBig(const PacketTooBigEvent& event) override { pathMtu_.add(event); }
    /// Asks for the memory onSegment(event) will read (DetectorSet calls it for every detector
    /// before any of them runs, so that their cache misses overlap instead of following each other).
    void prefetch(const SegmentEvent& event) const;
    void onClock(int64_t nowNs) override;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;

private:
    // One transmission of a sequence range, while it is unacknowledged. A range the capture
    // never saw (a hole before a later segment) is kept with the time and frame of the segment
    // that revealed the hole: the latest time it can have been sent.
    struct Sent {
        uint32_t seq = 0;
        uint32_t end = 0;
        uint32_t frame = 0;
        bool captured = true;
        bool resent = false;  // tsNs is a retransmission's: its ACK times nothing (Karn)
        int64_t tsNs = 0;
    };

    // A side's transmissions in flight: four of them (128 B, two cache lines) in the record itself.
    using SentQueue = SmallVector<Sent, 4>;

    static constexpr uint32_t kNoTotals = UINT32_MAX;
    // SenderState::inFlight without a queue: kNoQueue once the side's data was remembered (its
    // highestEnd is known), kNothingSent before.
    static constexpr uint32_t kNoQueue = RecordPool<SentQueue>::kNone;
    static constexpr uint32_t kNothingSent = kNoQueue - 1;

    // What one sending side of one connection has sent (24 B, one per side of every connection:
    // packed to a 4-byte alignment).
    // Its transmissions in flight, in sequence order, are in queues_ only while there are some,
    // so that the queues follow the data in flight at once, not every side ever seen.
    struct __attribute__((packed, aligned(4))) SenderState {
        int64_t lastSentTsNs = kNoTime;  // last data or FIN segment of this side
        uint32_t lastSentFrame = 0;
        uint32_t highestEnd = 0;           // the end of the highest segment sent so far
        uint32_t inFlight = kNothingSent;  // in queues_, bounded by kMaxInFlight; never an empty queue
        // The quickest the peer's ACK followed data of this side that was sent once, seen from the
        // capture point: no more than the round trip from it to the peer (a server slow to answer
        // a SYN makes the handshake's larger).
        uint32_t quickestAckUs = UINT32_MAX;
        [[nodiscard]] bool hasQueue() const { return inFlight < kNothingSent; }
        [[nodiscard]] bool highestKnown() const { return inFlight != kNothingSent; }
    };
    static_assert(sizeof(SenderState) == 24);

    // A timeout retransmission waiting for the ACK that shows whether it was needed.
    struct Candidate {
        ConnectionSnapshot connection;  // as after the retransmission
        Sent from;                      // the transmission it repeated
        int64_t gapNs = 0;
        int64_t tsNs = 0;
        uint32_t frame = 0;
        uint32_t seq = 0;
        uint32_t end = 0;
        Side sender = Side::Client;
        bool fin = false;
        bool flaggedSpurious = false;
    };

    // What only a side that retransmitted needs (by connection id * 2 + side).
    struct Retransmitted {
        int64_t lastRetransmissionTsNs = kNoTime;
        uint32_t totals = kNoTotals;        // index in totals_ once this side has a finding
        std::vector<Candidate> candidates;  // timeout retransmissions of the same wait, until judged
        uint32_t spurious = 0;              // retransmissions judged spurious
    };

    // One stall: from the last transmission to the retransmission.
    struct Stall {
        uint32_t fromFrame = 0;
        uint32_t frame = 0;
        int64_t startTsNs = 0;
        int64_t gapNs = 0;
        uint32_t relativeSeq = 0;
        uint32_t bytes = 0;
        bool originalCaptured = false;
        bool fin = false;
        bool spurious = false;
    };

    // The finding of one sending side, and what it adds up.
    struct Totals {
        uint32_t connection = 0;
        Side sender = Side::Client;
        uint32_t findingId = 0;
        uint32_t stalls = 0;
        uint32_t spurious = 0;  // spurious retransmissions of the side, counted apart
        int64_t lostNs = 0;
        int64_t longestNs = 0;
        int64_t firstTsNs = 0;  // the finding's start
        int64_t lifeNs = 1;     // of the connection, as last seen
        Endpoint senderEndpoint;
        Endpoint receiverEndpoint;
        std::vector<Stall> listed;  // the first stalls
        WaitTally waits;            // every stall
        // The stall going on (live only, onClock): waiting since ongoingSinceNs for `ongoingNs`
        // so far, for the data at ongoingSeq (relative) sent in ongoingFrame.
        int64_t ongoingNs = 0;
        int64_t ongoingSinceNs = 0;
        uint32_t ongoingFrame = 0;
        uint32_t ongoingSeq = 0;
        uint32_t ongoingBytes = 0;
    };

    // A stall the clock shows while it lasts (live only): the side's finding marked ongoing, or a
    // provisional one while the side has none.
    struct OpenStall {
        uint32_t findingId = 0;
        bool provisional = false;
        int64_t sinceNs = 0;
    };

    SenderState& stateOf(uint32_t connection, Side side);
    // The side's Retransmitted record, or null if it never retransmitted.
    [[nodiscard]] const Retransmitted* retransmittedOf(uint32_t connection, Side side) const;
    void acknowledge(SenderState& state, uint32_t ack, int64_t tsNs);
    void remember(SenderState& state, uint32_t seq, uint32_t end, uint32_t frame, int64_t tsNs);
    void releaseInFlight(SenderState& state);
    void onRetransmission(const SegmentEvent& event, SenderState& state, uint32_t end);
    // Judges the side's candidates by the peer's ACK `ackSegment` seen at `ackTsNs`: each resent
    // again before it was needed; the last is a stall, or spurious (by the round trip to the
    // receiver, with the quickest ACK of the side's data seen so far).
    void judge(Retransmitted& history, const TcpSegment& ackSegment, int64_t ackTsNs, uint32_t quickestAckUs);
    // Judges the side's candidates when no ACK will come (the connection or the input ended) from
    // the record of `connection`: needed, unless the receiver reset the connection (it had closed
    // its socket: nobody waited) or the capture never heard the receiver and the sender resent once.
    void judgeUnacknowledged(Retransmitted& history, const Connection& connection);
    void recordStall(const Candidate& candidate, Retransmitted& history);
    // Judges every candidate still waiting for its ACK (of one connection, or all), in key order.
    void judgeWaiting(const Connection* connection);
    void describe(uint32_t record, Finding& finding, Detail detail) const override;
    void measure(uint32_t record, Finding& finding) const override;
    // The time `totals` lost so far, finished stalls and the one going on.
    static int64_t lostNsOf(const Totals& totals) { return totals.lostNs + totals.ongoingNs; }
    // The parts of the finding of `totals` measure() writes (write() writes them too).
    static void measure(const Totals& totals, Finding& finding);
    // Writes the finding of `totals` (and of its stall going on, if any).
    static nlohmann::json evidence(const Totals& totals, const Finding& finding);
    static void write(const Totals& totals, Finding& finding, Detail detail);
    void track(const SegmentEvent& event);
    [[nodiscard]] int64_t waitingSince(uint32_t connection, Side sender, const SenderState& state) const;
    void showOngoing(const Connection& connection, Side sender, const SenderState& state, int64_t nowNs);
    // Ends what the clock showed for `sender` once the packets moved on (`force`: the input ended).
    // `connection` is a record or a segment's snapshot.
    template <typename Record>
    void settleOpen(const Record& connection, Side sender, bool force);

    ConnectionStates<SenderState, 2> states_;  // [connection id * 2 + side]
    RecordPool<SentQueue> queues_;             // the transmissions in flight of the sides that have some
    absl::flat_hash_map<uint32_t, Retransmitted> retransmitted_;  // by connection id * 2 + side
    ChunkedStore<Totals, 256> totals_;  // chunks: growing never copies them; in the spill file while one is on
    absl::flat_hash_map<uint32_t, OpenStall> open_;  // by connection id * 2 + side; empty on a file
    const TimestampClocks* clocks_ = nullptr;
    PathMtuResends pathMtu_{options(), log()};
};

}  // namespace tcpscope
