#pragma once
#include <cstdint>

#include "tcp/analysis_flags.hpp"

namespace tcpscope {

/// Per-direction state of the sequence analysis, with the meaning Wireshark gives it.
/// A zero nextSeq or maxSeqToBeAcked means "not known yet", as in Wireshark.
struct SequenceState {
    // Ordered by size so that no padding is needed (two per connection).
    int64_t nextSeqTsNs = 0;         ///< when nextSeq last rose
    int64_t lastAckTsNs = 0;         ///< time of the last segment sent
    uint32_t baseSeq = 0;            ///< the sender's initial sequence number (guessed when the SYN was not seen)
    uint32_t nextSeq = 0;            ///< highest seq + length (+1 for SYN/FIN) sent
    uint32_t maxSeqToBeAcked = 0;    ///< end of the contiguous data sent (for ack_lost_segment)
    uint32_t lastAck = 0;            ///< ack field of the last segment sent
    uint32_t window = UINT32_MAX;    ///< raw window field of the last segment sent
    uint32_t dupAckCount = 0;        ///< duplicate ACKs in a row; kAckedUnseenReported marks "ack_lost_segment already reported"
    AnalysisFlags lastSegmentFlags = 0;
    bool baseSeqSet = false;
    bool isFirstAck = false;         ///< from this side's SYN until its first non-SYN ACK: its window is unscaled
    int8_t windowScale = -1;         ///< -1 unknown, -2 no scaling in use, otherwise the shift
};

/// The duplicate-ACK counter's marker after an ACK of unseen data was reported. Being unsigned and
/// large, it also counts as "two or more duplicate ACKs" for the fast-retransmission test, as in
/// Wireshark 4.0.
inline constexpr uint32_t kAckedUnseenReported = UINT32_MAX;

/// The fields of one segment that the sequence analysis looks at.
struct SequenceInput {
    uint32_t seq = 0;
    uint32_t ack = 0;
    uint32_t payloadLength = 0;
    uint16_t tcpFlags = 0;
    uint16_t window = 0;   ///< raw window field
    int64_t tsNs = 0;
};

/// Classifies one segment sent by the `sender` side with Wireshark 4.0's TCP sequence analysis
/// (retransmissions, out-of-order, lost and ACKed-unseen segments, duplicate ACKs, window and
/// keep-alive conditions) and updates both directions' state. `initialRttNs` is the
/// connection's handshake RTT (0 if unknown), which bounds what counts as out-of-order.
/// `flags` carries bits already decided for this segment (reused_ports).
AnalysisFlags analyzeSequence(SequenceState& sender, SequenceState& receiver, const SequenceInput& segment,
                              int64_t initialRttNs, AnalysisFlags flags);

}  // namespace tcpscope
