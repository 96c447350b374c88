#pragma once
#include <cstddef>
#include <cstdint>

#include "decode/decoded_packet.hpp"
#include "engine/connection_snapshot.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// One analysed TCP segment, as the engine hands it to observers (detectors, live views).
struct SegmentEvent {
    const TcpSegment& segment;
    const ConnectionSnapshot& connection;  ///< what observers read of its connection after this segment was applied
    Side sender;
    uint32_t frame;
    int64_t tsNs;
    AnalysisFlags analysis;
};

/// An ICMP "fragmentation needed" or ICMPv6 "packet too big" message about a TCP segment, as the
/// engine hands it to observers: no connection is looked up for it (the message names a direction,
/// and the capture may hold nothing else of that connection).
struct PacketTooBigEvent {
    const TcpSegment& quoted;  ///< what the message quotes of the segment: endpoints, sequence number
    const PacketTooBig& message;
    uint32_t frame;
    int64_t tsNs;
};

/// An ICMP or ICMPv6 "destination unreachable" message about a TCP segment (a SYN a firewall
/// rejects, say), as the engine hands it to observers: no connection is looked up for it.
struct UnreachableEvent {
    const TcpSegment& quoted;  ///< what the message quotes of the segment: endpoints, sequence number
    const DestinationUnreachable& message;
    uint32_t frame;
    int64_t tsNs;
};

/// Receives every analysed segment in capture order. Detectors implement this so that they run
/// the same way on a file and on a live capture.
///
/// A file loaded on two threads calls onSegment() on one thread while the other tracks the
/// connections of later segments (AnalysisEngine::track and notify). The event itself is as it was
/// then, but the engine has moved on: onSegment() (and what it calls) may read of the engine only
/// what tracking does not change any more, namely
/// - of any connection seen before, connections()[id] (operator[], not at() or size()): the fields
///   fixed when it was created (id, tuple, client, server, clientIsLow, midstream, firstTsNs,
///   firstFrame, reusedFrom, reusedEarlierClosed, reuseGapNs);
/// - every field of an earlier generation of a tuple (connections()[event.connection.reusedFrom]
///   and those before it): once a newer generation took the tuple, no segment changes it again;
/// and nothing else (not the packet index, the counters, clockNs(): they belong to later frames).
/// onClock(), onEnd() and onRetire() run with the engine at rest and may read all of it.
class SegmentObserver {
public:
    virtual ~SegmentObserver() = default;
    /// Called once per TCP segment, in capture order.
    virtual void onSegment(const SegmentEvent& event) = 0;
    /// Called for every "too big" message about a TCP segment, in capture order among the segments.
    virtual void onPacketTooBig(const PacketTooBigEvent& event) { (void)event; }
    /// Called for every "destination unreachable" message about a TCP segment, in capture order among the segments.
    virtual void onUnreachable(const UnreachableEvent& event) { (void)event; }
    /// Called on a live capture a few times a second with the capture clock's time (never less than
    /// the last segment's, never going back), so that a stall still going on shows without waiting
    /// for the packet that ends it. Not called while a file is read: onEnd ends every open stall.
    virtual void onClock(int64_t nowNs) { (void)nowNs; }
    /// Called once when the input has ended (no more segments will come), with the last capture time.
    virtual void onEnd(int64_t lastTsNs) { (void)lastTsNs; }
    /// Called when a live capture retires `connection` (closed or idle for the retirement age, see
    /// ConnectionRetirement): no segment of it comes again. Release what is kept per connection,
    /// keeping only what the findings and the report need.
    virtual void onRetire(const Connection& connection) { (void)connection; }
};

}  // namespace tcpscope
