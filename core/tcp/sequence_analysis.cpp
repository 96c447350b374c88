#include "tcp/sequence_analysis.hpp"

#include "decode/decoded_packet.hpp"
#include "tcp/seq_math.hpp"

namespace tcpscope {

// This follows the order and conditions of Wireshark 4.0's tcp_analyze_sequence_number, as
// measured against tshark 4.0.17 (see docs/wireshark-flags.md for the rules and the quirks kept on
// purpose). Several conditions use plain equality instead of sequence-space comparisons
// because Wireshark does; changing them would make the flags disagree with what users see there.

namespace {

constexpr int64_t kFastRetransmissionWindowNs = 20'000'000;  // 20 ms after the last duplicate ACK
constexpr int64_t kDefaultOutOfOrderNs = 3'000'000;          // without a handshake RTT

bool anyOf(uint16_t flags, uint16_t mask) { return (flags & mask) != 0; }

// Conditions 1 to 9: zero window, lost segment, keep-alive, window update/full, duplicate ACK.
AnalysisFlags classifyWindowAndAck(SequenceState& sender, const SequenceState& receiver, const SequenceInput& in) {
    constexpr uint16_t kSynFinRst = tcpflag::kSyn | tcpflag::kFin | tcpflag::kRst;
    const uint32_t length = in.payloadLength;
    const bool control = anyOf(in.tcpFlags, kSynFinRst);
    AnalysisFlags flags = 0;

    if (length == 1 && in.seq == sender.nextSeq && receiver.window == 0) {
        return bit(AnalysisFlag::ZeroWindowProbe);  // a probe is nothing else
    }
    if (in.window == 0 && !control) {
        flags |= bit(AnalysisFlag::ZeroWindow);
    }
    if (sender.nextSeq != 0 && seq::gt(in.seq, sender.nextSeq) && !anyOf(in.tcpFlags, tcpflag::kRst)) {
        flags |= bit(AnalysisFlag::LostSegment);
    }
    if (length <= 1 && in.seq == sender.nextSeq - 1 && !control) {
        flags |= bit(AnalysisFlag::KeepAlive);
    }
    const bool sameSeqAndAck = in.seq == sender.nextSeq && in.ack == sender.lastAck;
    if (length == 0 && in.window != 0 && in.window != sender.window && sameSeqAndAck && !control) {
        flags |= bit(AnalysisFlag::WindowUpdate);
    }
    if (length > 0 && receiver.windowScale != -1 && !control) {
        const int shift = (receiver.isFirstAck || receiver.windowScale == -2) ? 0 : receiver.windowScale;
        if (in.seq + length == receiver.lastAck + (receiver.window << shift)) {
            flags |= bit(AnalysisFlag::WindowFull);
        }
    }
    const bool pureRepeat = length == 0 && sameSeqAndAck && !control;
    if (pureRepeat && in.window != 0 && in.window == sender.window &&
        has(receiver.lastSegmentFlags, AnalysisFlag::KeepAlive)) {
        return flags | bit(AnalysisFlag::KeepAliveAck);
    }
    if (pureRepeat && in.window == 0 && sender.window == 0 &&
        has(receiver.lastSegmentFlags, AnalysisFlag::ZeroWindowProbe)) {
        return flags | bit(AnalysisFlag::ZeroWindowProbeAck);
    }
    if (pureRepeat && in.window != 0 && in.window == sender.window) {
        sender.dupAckCount = sender.dupAckCount == kAckedUnseenReported ? 1 : sender.dupAckCount + 1;
        flags |= bit(AnalysisFlag::DuplicateAck);
    }
    return flags;
}

// Condition 11: this segment acknowledges data of the receiver that the capture never saw.
AnalysisFlags classifyAckedUnseen(SequenceState& receiver, const SequenceInput& in) {
    if (receiver.maxSeqToBeAcked == 0 || !seq::gt(in.ack, receiver.maxSeqToBeAcked) ||
        !anyOf(in.tcpFlags, tcpflag::kAck)) {
        return 0;
    }
    if (seq::gt(receiver.nextSeq, receiver.maxSeqToBeAcked)) {
        // The peer sent data beyond a hole: the hole is now acknowledged, report it once.
        receiver.maxSeqToBeAcked = receiver.nextSeq;
        return bit(AnalysisFlag::AckLostSegment);
    }
    const bool firstReport = receiver.dupAckCount == 0;
    receiver.dupAckCount = kAckedUnseenReported;
    return firstReport ? bit(AnalysisFlag::AckLostSegment) : 0;
}

// Condition 12: segments carrying data, SYN or FIN that do not advance the sequence.
AnalysisFlags classifyRetransmission(const SequenceState& sender, const SequenceState& receiver,
                                     const SequenceInput& in, int64_t initialRttNs, AnalysisFlags flags) {
    const uint32_t length = in.payloadLength;
    const bool synOrFin = anyOf(in.tcpFlags, tcpflag::kSyn | tcpflag::kFin);
    if ((length == 0 && !synOrFin) || has(flags, AnalysisFlag::KeepAlive)) {
        return 0;
    }
    bool notAdvanced = sender.nextSeq != 0 && seq::lt(in.seq, sender.nextSeq);
    if (length > 1 && in.seq == sender.nextSeq - 1) {
        notAdvanced = false;  // data that starts one byte back follows an accepted zero-window probe
    }
    const AnalysisFlags retransmission = bit(AnalysisFlag::Retransmission);
    if (length > 0 && receiver.lastAck != 0 && seq::le(in.seq + length, receiver.lastAck)) {
        return retransmission | bit(AnalysisFlag::SpuriousRetransmission);
    }
    if (notAdvanced && receiver.dupAckCount >= 2 && receiver.lastAck == in.seq &&
        in.tsNs - receiver.lastAckTsNs < kFastRetransmissionWindowNs) {
        return retransmission | bit(AnalysisFlag::FastRetransmission);
    }
    const int64_t outOfOrderNs = initialRttNs != 0 ? initialRttNs : kDefaultOutOfOrderNs;
    const uint32_t segmentEnd = in.seq + length + (synOrFin ? 1 : 0);
    if (notAdvanced && in.tsNs - sender.nextSeqTsNs < outOfOrderNs && sender.nextSeq != segmentEnd) {
        return bit(AnalysisFlag::OutOfOrder);
    }
    return notAdvanced ? retransmission : 0;
}

}  // namespace

AnalysisFlags analyzeSequence(SequenceState& sender, SequenceState& receiver, const SequenceInput& in,
                              int64_t initialRttNs, AnalysisFlags flags) {
    // A repeated SYN (same ISN) first takes the sender back to the end of what it sent without a
    // hole, forgetting a RST's far-ahead sequence number or data sent after a gap (measured on
    // tshark 4.0.17: the SYN itself is then a retransmission, never out-of-order).
    const bool repeatedSyn = (in.tcpFlags & (tcpflag::kSyn | tcpflag::kAck)) == tcpflag::kSyn && sender.baseSeqSet &&
                             in.seq == sender.baseSeq && sender.maxSeqToBeAcked != 0;
    if (repeatedSyn) {
        sender.nextSeq = sender.maxSeqToBeAcked;
    }
    if (!sender.baseSeqSet) {
        sender.baseSeq = anyOf(in.tcpFlags, tcpflag::kSyn) ? in.seq : in.seq - 1;
        sender.baseSeqSet = true;
    }
    if (!receiver.baseSeqSet && anyOf(in.tcpFlags, tcpflag::kAck)) {
        receiver.baseSeq = in.ack - 1;
        receiver.baseSeqSet = true;
    }

    flags |= classifyWindowAndAck(sender, receiver, in);
    if (in.ack != sender.lastAck) {
        sender.dupAckCount = 0;
    }
    flags |= classifyAckedUnseen(receiver, in);
    flags |= classifyRetransmission(sender, receiver, in, initialRttNs, flags);

    // State update: every segment, RSTs included, except that a zero-window probe's byte does
    // not count as sent.
    const bool synOrFin = anyOf(in.tcpFlags, tcpflag::kSyn | tcpflag::kFin);
    const uint32_t segmentEnd = in.seq + in.payloadLength + (synOrFin ? 1 : 0);
    const bool probe = has(flags, AnalysisFlag::ZeroWindowProbe);
    if (!probe && (sender.nextSeq == 0 || seq::gt(segmentEnd, sender.nextSeq))) {
        sender.nextSeq = segmentEnd;
        sender.nextSeqTsNs = in.tsNs;
    }
    if (!probe && (sender.maxSeqToBeAcked == 0 || in.seq == sender.maxSeqToBeAcked)) {
        sender.maxSeqToBeAcked = sender.nextSeq;
    }
    sender.window = in.window;
    sender.lastAck = in.ack;
    sender.lastAckTsNs = in.tsNs;
    sender.lastSegmentFlags = flags;
    return flags;
}

}  // namespace tcpscope
