#include "tcp/tcp_tracker.hpp"

#include <algorithm>
#include <array>

namespace tcpscope {

namespace {

constexpr int8_t kMaxWindowShift = 14;  // RFC 7323 section 2.3

bool hasFlags(uint16_t flags, uint16_t mask) { return (flags & mask) == mask; }

// Handshake timing and window scaling, updated after the sequence analysis of each segment
// exactly as Wireshark does, so that the next segment sees the same state there and here.
void updateHandshake(Connection& connection, std::array<SequenceState, 2>& sequence, Side sender,
                     const TcpSegment& segment, int64_t tsNs) {
    SequenceState& fwd = sequence[sideIndex(sender)];
    SequenceState& rev = sequence[sideIndex(otherSide(sender))];
    const uint16_t synAck = segment.flags & (tcpflag::kSyn | tcpflag::kAck);
    if ((segment.flags & tcpflag::kSyn) != 0) {
        if (synAck == tcpflag::kSyn) {
            connection.synTsNs = tsNs;  // the most recent SYN: a retransmission restarts the RTT
        }
        fwd.isFirstAck = true;
        if (segment.options.windowScale >= 0) {
            fwd.windowScale = std::min(segment.options.windowScale, kMaxWindowShift);
        }
        // Scaling is in use only if both SYNs carry the option (RFC 7323 section 2.2).
        if (fwd.windowScale == -1) {
            fwd.windowScale = -2;
            rev.windowScale = -2;
        } else if (synAck == (tcpflag::kSyn | tcpflag::kAck) && rev.windowScale == -2) {
            fwd.windowScale = -2;
        }
    }
    if (synAck == tcpflag::kAck) {
        // Set once; a zero RTT counts as unknown and the next ACK measures again (as in Wireshark).
        if (connection.synTsNs != kNoTime && connection.initialRttNs == 0) {
            connection.handshakeAckTsNs = tsNs;
            connection.initialRttNs = tsNs - connection.synTsNs;
        }
        fwd.isFirstAck = false;
    }
}

void updateSummary(Connection& connection, Side sender, const TcpSegment& segment, int64_t tsNs, uint32_t frame,
                   AnalysisFlags analysis) {
    DirectionSummary& from = connection.sent[sideIndex(sender)];
    connection.lastTsNs = tsNs;
    connection.lastFrame = frame;
    ++from.packets;
    from.payloadBytes += segment.payloadLength;
    if (has(analysis, AnalysisFlag::Retransmission)) {
        from.retransmittedBytes += segment.payloadLength;
    }

    const uint16_t flags = segment.flags;
    if ((flags & tcpflag::kSyn) != 0) {
        const bool synAck = (flags & tcpflag::kAck) != 0;
        if (!from.sawSyn) {
            from.isn = segment.seq;
            from.mss = segment.options.mss;
            from.windowScale = segment.options.windowScale;
            from.sackPermitted = segment.options.sackPermitted;
            from.timestamps = segment.options.hasTimestamp;
        }
        from.sawSyn = true;
        if (synAck) {
            ++connection.synAckCount;
            if (connection.synAckTsNs == kNoTime) {
                connection.synAckTsNs = tsNs;
            }
            if (connection.state == ConnectionState::SynSent) {
                connection.state = ConnectionState::SynReceived;
            }
        } else {
            ++connection.synCount;
            // A SYN repeated after a RST, before any SYN-ACK (the RST answered a TIME_WAIT
            // socket's challenge ACK): the connection attempt goes on, it did not end.
            if (connection.state == ConnectionState::Reset && connection.synAckCount == 0) {
                connection.state = ConnectionState::SynSent;
                connection.hasResetBy = false;
                connection.closeTsNs = kNoTime;
            }
        }
    } else if ((flags & tcpflag::kAck) != 0 && connection.state == ConnectionState::SynReceived &&
               sender == Side::Client) {
        connection.state = ConnectionState::Established;
    }

    if ((flags & tcpflag::kFin) != 0 && !from.sawFin) {
        from.sawFin = true;
        from.firstFinTsNs = tsNs;
        from.firstFinFrame = frame;
        if (!connection.hasActiveCloser) {
            connection.hasActiveCloser = true;
            connection.activeCloser = sender;
        }
        if (connection.state != ConnectionState::Reset) {
            const bool bothClosed = connection.sent[sideIndex(otherSide(sender))].sawFin;
            connection.state = bothClosed ? ConnectionState::Closed : ConnectionState::HalfClosed;
            if (bothClosed) {
                connection.closeTsNs = tsNs;
            }
        }
    }
    if ((flags & tcpflag::kRst) != 0) {
        from.sawRst = true;
        if (!connection.hasResetBy) {
            connection.hasResetBy = true;
            connection.resetBy = sender;
        }
        if (connection.state != ConnectionState::Closed) {
            connection.state = ConnectionState::Reset;
            if (connection.closeTsNs == kNoTime) {
                connection.closeTsNs = tsNs;
            }
        }
    }
}

}  // namespace

TrackedSegment TcpTracker::track(const TcpSegment& segment, const TupleRef& tuple, int64_t tsNs, uint32_t frame) {
    table_.releaseClosed(tsNs);
    const ConnectionLookup found = table_.lookup(segment, tuple, tsNs, frame);
    Connection& connection = *found.connection;
    const Side sender = found.sender;
    std::array<SequenceState, 2>& sequence = *found.sequence;
    SequenceState& fwd = sequence[sideIndex(sender)];
    SequenceState& rev = sequence[sideIndex(otherSide(sender))];

    AnalysisFlags preset = found.newGeneration ? bit(AnalysisFlag::ReusedPorts) : 0;
    // A SYN-ACK with a new sequence number on a known tuple: Wireshark keeps the connection but
    // restarts the responder's relative numbering and marks the reuse.
    if (hasFlags(segment.flags, tcpflag::kSyn | tcpflag::kAck) && fwd.baseSeqSet && segment.seq != fwd.baseSeq) {
        fwd.baseSeq = segment.seq;
        preset |= bit(AnalysisFlag::ReusedPorts);
    }

    SequenceInput input;
    input.seq = segment.seq;
    input.ack = segment.ack;
    input.payloadLength = segment.payloadLength;
    input.tcpFlags = segment.flags;
    input.window = segment.window;
    input.tsNs = tsNs;
    const int64_t rttNs = connection.initialRttNs;
    const AnalysisFlags analysis = analyzeSequence(fwd, rev, input, rttNs, preset);

    updateHandshake(connection, sequence, sender, segment, tsNs);
    for (const Side side : {Side::Client, Side::Server}) {
        const SequenceState& state = sequence[sideIndex(side)];
        connection.sequence[sideIndex(side)] = SequenceSummary{state.baseSeq, state.nextSeq, state.windowScale};
    }
    // Bytes in flight as Wireshark counts them: from the peer's last ACK to the end of this segment.
    const SequenceState& peer = rev;
    if (segment.payloadLength > 0 && peer.lastAck != 0 && (peer.lastAckTsNs != 0)) {
        const uint32_t inFlight = segment.seq + segment.payloadLength - peer.lastAck;
        if (static_cast<int32_t>(inFlight) > 0) {
            DirectionSummary& from = connection.sent[sideIndex(sender)];
            from.maxBytesInFlight = std::max(from.maxBytesInFlight, inFlight);
        }
    }
    const bool wasOpen = connection.closeTsNs == kNoTime;
    updateSummary(connection, sender, segment, tsNs, frame, analysis);
    if (wasOpen && connection.closeTsNs != kNoTime) {
        table_.noteClosed(connection);
    }
    return TrackedSegment{&connection, sender, analysis, found.created};
}

}  // namespace tcpscope
