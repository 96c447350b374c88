#pragma once
#include <absl/container/flat_hash_map.h>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "detect/detector.hpp"
#include "detect/support/connection_states.hpp"
#include "detect/support/fifo_queue.hpp"
#include "finding/finding_impact.hpp"

namespace tcpscope {

/// Finds listeners whose queues overflowed: while the accept queue is full, Linux drops new SYNs
/// (the client retransmits them after 1 s, or on its backoff) and drops the final ACK of the
/// handshake (the server retransmits its SYN-ACK), or, with tcp_abort_on_overflow, resets the
/// connection right after the handshake. One `syn_backlog_overflow` finding per listener
/// (server address and port), growing with every connection it delayed or refused: how many,
/// the delay they had added, the peak number of handshakes in flight at once.
/// SYNs answered by a bare ACK or a RST (a TIME_WAIT collision, left to port_reuse) and SYNs to
/// an endpoint that never answered any SYN (a firewall, a host that is down: syn_unanswered) do
/// not count. Nor does a SYN-ACK resent to a client that sent no data: an idle pre-connected
/// socket on a listener with TCP_DEFER_ACCEPT, where nobody waited for the handshake.
/// It is an error when the drops came in a burst (at some moment at least two handshakes, and
/// at least half of those in flight, were waiting for a retransmission), or when two or more
/// connections lost their final ACK or were reset; sparse drops among handshakes that complete
/// normally look like packet loss, not an overflow, and are only information.
/// On a live capture (onClock) a listener's finding is ongoing while handshakes whose SYN it
/// dropped are still unanswered: its delay grows with their wait until an answer or the end.
/// A retired connection (onRetire) has its outcome made final at once and its state released;
/// the listener queues skip it from then on.
class SynBacklogDetector final : public Detector {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    /// Asks for the memory onSegment(event) will read (DetectorSet calls it for every detector
    /// before any of them runs, so that their cache misses overlap instead of following each other).
    void prefetch(const SegmentEvent& event) const;
    void onClock(int64_t nowNs) override;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;

    /// Bytes of per-connection state held (the chunks of retired connections are freed).
    [[nodiscard]] size_t stateBytes() const { return handshakeOf_.bytesHeld() + handshakes_.bytesHeld(); }
    /// Handshakes held: those under way and those counted in a finding (not retired).
    [[nodiscard]] size_t handshakesHeld() const { return handshakes_.inUse(); }
    /// Listeners held: endpoints that answered a SYN, or had a SYN retransmitted or two handshakes.
    [[nodiscard]] size_t listenersHeld() const { return listeners_.size(); }

private:
    static constexpr uint32_t kNotListed = UINT32_MAX;

    // The handshake of one connection, seen from the listener's side: from the client's first SYN
    // until nothing can change it any more (see isOver), or to the end if it counted in a finding.
    struct Handshake {
        bool tracked : 1 = false;           // began with a SYN seen here
        bool excluded : 1 = false;          // answered by a bare ACK or RST, or a reuse into TIME_WAIT
        bool pending : 1 = false;           // counted in its listener's handshakes in flight
        bool waiting : 1 = false;           // in flight and had a SYN retransmitted by timeout
        bool answered : 1 = false;          // a SYN-ACK answered the latest SYN
        bool clientAckedSynAck : 1 = false;  // the client ACKed the latest SYN-ACK
        bool completed : 1 = false;         // the client ACKed a SYN-ACK
        bool serverSentData : 1 = false;    // payload or FIN from the server
        bool clientSentData : 1 = false;    // payload from the client: it waits for an answer
        bool counted : 1 = false;           // part of its listener's finding
        bool delayCounted : 1 = false;      // counted among its listener's delayed connections
        bool resetByServer : 1 = false;     // reset right after the handshake (tcp_abort_on_overflow)
        bool unconfirmedListed : 1 = false;  // in its listener's unconfirmed list
        uint32_t listener = 0;  // kNotListed while alone to its endpoint (see aloneIndex_)
        uint32_t firstSynFrame = 0;
        uint32_t synTimeouts = 0;     // SYNs retransmitted by timeout while unanswered
        uint32_t synAckTimeouts = 0;  // SYN-ACKs retransmitted although the client had ACKed
        uint32_t listedIndex = kNotListed;
        uint32_t waitIndex = kNotListed;  // in its listener's waits, once counted
        int64_t firstSynTsNs = 0;
        int64_t lastSynTsNs = 0;
        int64_t lastCountedSynTsNs = 0;
        int64_t roundSynAckTsNs = 0;  // the SYN-ACK that answered the latest SYN
        int64_t lastSynAckTsNs = 0;
        int64_t lastCountedSynAckTsNs = 0;
        int64_t completedTsNs = 0;
        int64_t delayNs = 0;  // its share of the listener's total delay
    };

    // One server address and port, and its finding.
    struct Listener {
        Endpoint endpoint;
        FifoQueue<uint32_t> inFlightOrder;  // connection ids by first SYN; settled ones are popped lazily
        uint32_t inFlight = 0;
        uint32_t peakInFlight = 0;
        uint32_t waiting = 0;  // handshakes in flight that had a SYN retransmitted
        uint32_t peakWaiting = 0;
        bool burst = false;         // at some moment, most handshakes in flight were waiting
        bool everAnswered = false;  // sent a SYN-ACK at least once: it is a listener
        std::vector<std::pair<uint32_t, uint32_t>> unconfirmed;  // (connection, SYN frame) before everAnswered
        bool hasFinding = false;
        bool ongoing = false;  // live: the finding counts handshakes still waiting (onClock)
        bool impactStale = false;  // waits changed since the finding's impact was written
        uint32_t findingId = 0;
        uint32_t affected = 0;  // connections in the finding: delayed, reset, or both
        uint32_t delayed = 0;
        uint32_t reset = 0;
        uint32_t synRetransmissions = 0;
        uint32_t synAckRetransmissions = 0;
        uint32_t synAckDelayed = 0;  // connections whose SYN-ACK had to be resent
        uint32_t unfinished = 0;     // delayed, never established (known at the end)
        uint32_t listed = 0;
        int64_t totalDelayNs = 0;
        int64_t maxDelayNs = 0;
        WaitTally waits;  // each counted connection's, from its first packet for its delay
    };

    // A connection's entry in handshakes_, kNoHandshake while it has none (4 B per connection).
    struct HandshakeRef {
        uint32_t index = RecordPool<Handshake>::kNone;
    };
    static constexpr uint32_t kNoHandshake = RecordPool<Handshake>::kNone;

    // The handshake of `connection`, or null if it has none (never tracked, over, or retired).
    Handshake* find(uint32_t connection);
    [[nodiscard]] bool isOver(const Handshake& state) const;
    // prefetch() for a connection's first SYN.
    void prefetchListener(const Endpoint& server, uint32_t frame) const;
    // The listener of `server`, made now if it has none.
    uint32_t listenerOf(const Endpoint& server);
    // A new Listener for `server`, with what the handshake alone to it so far (if any) counted.
    uint32_t addListener(const Endpoint& server);
    // The handshake is let go: an endpoint it was alone to is forgotten (as if no SYN had gone there).
    void release(HandshakeRef& ref, const Endpoint& server);
    void onTracked(const SegmentEvent& event, Handshake& state);
    void onClientSyn(const SegmentEvent& event, Handshake& state);
    // A SYN-ACK shows a listener is there: the SYNs it let retransmit before count now.
    void confirmListener(Listener& listener);
    void onServerSynAck(const SegmentEvent& event, Handshake& state);
    void onServerReset(const SegmentEvent& event, Handshake& state);
    void addInFlight(Listener& listener, uint32_t connection, int64_t tsNs);
    void settle(Handshake& state);
    // `connection` is a record or a segment's snapshot: only its id and client are read.
    template <typename Record>
    void countEvidence(const Record& connection, Handshake& state, uint32_t frame, bool isReset);
    void updateDelay(Handshake& state, bool final);
    void finish(Handshake& state);
    void refresh(Listener& listener);
    void writeImpact(Listener& listener);
    void showWaiting(Listener& listener, int64_t nowNs);

    ConnectionStates<HandshakeRef> handshakeOf_;  // [connection id]
    RecordPool<Handshake> handshakes_;
    // Retired connections still in an unconfirmed list: counted if their listener answers later.
    absl::flat_hash_map<uint32_t, Handshake> retiredUnconfirmed_;
    std::vector<Listener> listeners_;
    absl::flat_hash_map<Endpoint, uint32_t> listenerIndex_;
    // Endpoints without a Listener that one handshake, not over, has gone to (each endpoint of a SYN
    // scan), and its connection. Its handshake's `listener` is kNotListed until the endpoint answers,
    // the SYN is retransmitted or another connection's SYN goes there: addListener then makes the
    // Listener it would have had from the start. An endpoint is forgotten when its handshake is over.
    absl::flat_hash_map<Endpoint, uint32_t> aloneIndex_;
    // The listener prefetch() found for the first SYN of frame `frame`, so that onSegment() of the
    // same event does not look it up again.
    struct FoundListener {
        uint32_t frame = 0;
        uint32_t index = kNotListed;
    };
    mutable FoundListener prefetched_;
    bool ended_ = false;
};

}  // namespace tcpscope
