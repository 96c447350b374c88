#include "bench/tcp_dialogue.hpp"

namespace tcpscope::bench {

namespace {
// Linux's SYN window (before scaling applies).
constexpr uint16_t kSynWindow = 64240;
constexpr uint8_t kWindowScale = 7;
constexpr uint16_t kTimestampOptionBytes = 12;
}  // namespace

TcpDialogue::TcpDialogue(const DialogueSettings& settings) : settings_(settings) {
    nextSeq_ = {settings.clientIsn, settings.serverIsn};
    window_ = {settings.rawWindow, settings.rawWindow};
    ipId_ = {settings.clientIpId, settings.serverIpId};
}

uint16_t TcpDialogue::fullSegmentBytes() const {
    return settings_.timestamps ? static_cast<uint16_t>(settings_.mssOption - kTimestampOptionBytes)
                                : settings_.mssOption;
}

PlannedSegment TcpDialogue::make(Side side, int64_t tsNs, uint8_t flags, uint32_t seq, uint32_t ackNumber,
                                 uint16_t bytes) {
    const TcpTuple& tuple = settings_.tuple;
    const bool fromClient = side == Side::Client;
    PlannedSegment segment;
    segment.tsNs = tsNs;
    segment.sourceIp = fromClient ? tuple.clientIp : tuple.serverIp;
    segment.destinationIp = fromClient ? tuple.serverIp : tuple.clientIp;
    segment.sourcePort = fromClient ? tuple.clientPort : tuple.serverPort;
    segment.destinationPort = fromClient ? tuple.serverPort : tuple.clientPort;
    segment.seq = seq;
    segment.ack = ackNumber;
    segment.flags = flags;
    segment.payloadBytes = bytes;
    segment.window = window_[index(side)];
    segment.ipId = ipId_[index(side)]++;
    segment.mss = settings_.mssOption;
    segment.windowScale = kWindowScale;
    if (settings_.timestamps) {
        const uint32_t base = fromClient ? settings_.clientTsBase : settings_.serverTsBase;
        segment.tsVal = base + static_cast<uint32_t>(tsNs / 1'000'000);
        segment.tsEcr = lastTsVal_[index(peerOf(side))];
        lastTsVal_[index(side)] = segment.tsVal;
        segment.options = SegmentOptions::Timestamps;
    }
    return segment;
}

void TcpDialogue::syn(std::vector<PlannedSegment>& out, int64_t tsNs) {
    PlannedSegment segment = make(Side::Client, tsNs, tcpflag::kSyn, settings_.clientIsn, 0, 0);
    segment.window = kSynWindow;
    segment.tsEcr = 0;
    segment.options = settings_.timestamps ? SegmentOptions::Syn : SegmentOptions::SynNoTs;
    segment.opensConnection = !synSent_;
    synSent_ = true;
    nextSeq_[index(Side::Client)] = settings_.clientIsn + 1;
    out.push_back(segment);
}

void TcpDialogue::synAck(std::vector<PlannedSegment>& out, int64_t tsNs) {
    PlannedSegment segment = make(Side::Server, tsNs, tcpflag::kSyn | tcpflag::kAck, settings_.serverIsn,
                                  settings_.clientIsn + 1, 0);
    segment.window = kSynWindow;
    segment.options = settings_.timestamps ? SegmentOptions::Syn : SegmentOptions::SynNoTs;
    nextSeq_[index(Side::Server)] = settings_.serverIsn + 1;
    out.push_back(segment);
}

uint32_t TcpDialogue::send(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint16_t bytes) {
    const uint32_t seq = nextSeq_[index(side)];
    out.push_back(make(side, tsNs, tcpflag::kAck | tcpflag::kPsh, seq, nextSeq_[index(peerOf(side))], bytes));
    nextSeq_[index(side)] = seq + bytes;
    return seq;
}

void TcpDialogue::resend(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint32_t seq, uint16_t bytes) {
    out.push_back(make(side, tsNs, tcpflag::kAck | tcpflag::kPsh, seq, nextSeq_[index(peerOf(side))], bytes));
}

void TcpDialogue::ack(std::vector<PlannedSegment>& out, Side side, int64_t tsNs) {
    ackAt(out, side, tsNs, nextSeq_[index(peerOf(side))]);
}

void TcpDialogue::ackAt(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint32_t ackNumber) {
    out.push_back(make(side, tsNs, tcpflag::kAck, nextSeq_[index(side)], ackNumber, 0));
}

void TcpDialogue::fin(std::vector<PlannedSegment>& out, Side side, int64_t tsNs) {
    const uint32_t seq = nextSeq_[index(side)];
    out.push_back(make(side, tsNs, tcpflag::kFin | tcpflag::kAck, seq, nextSeq_[index(peerOf(side))], 0));
    nextSeq_[index(side)] = seq + 1;
}

void TcpDialogue::reset(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, bool withAck) {
    const uint8_t flags = withAck ? (tcpflag::kRst | tcpflag::kAck) : tcpflag::kRst;
    PlannedSegment segment = make(side, tsNs, flags, nextSeq_[index(side)], nextSeq_[index(peerOf(side))], 0);
    segment.window = 0;
    segment.options = SegmentOptions::None;  // Linux sends RSTs without options
    out.push_back(segment);
}

void TcpDialogue::stray(std::vector<PlannedSegment>& out, Side side, int64_t tsNs, uint8_t flags, uint32_t seq,
                        uint32_t ackNumber) {
    PlannedSegment segment = make(side, tsNs, flags, seq, ackNumber, 0);
    if ((flags & tcpflag::kRst) != 0) {
        segment.window = 0;
        segment.options = SegmentOptions::None;
    }
    out.push_back(segment);
}

}  // namespace tcpscope::bench
