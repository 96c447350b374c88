#include "bench/short_exchange.hpp"

#include <algorithm>

namespace tcpscope::bench {

namespace {
constexpr int64_t kUs = 1'000;
constexpr int64_t kMs = 1'000'000;
constexpr int64_t kSecond = 1'000'000'000;
// Time between back-to-back segments of one sender (a 1500-byte frame at about 1 Gbit/s).
constexpr int64_t kSegmentGapNs = 12 * kUs;
// The receiving host's own reaction time (an ACK, a SYN-ACK from the kernel).
constexpr int64_t kKernelNs = 20 * kUs;
// Linux's initial RTO, used for SYN and SYN-ACK retransmissions.
constexpr int64_t kInitialRtoNs = kSecond;
}  // namespace

ShortExchange::ShortExchange(const ShortExchangePlan& plan, FinishedConnectionSink* sink)
    : plan_(plan), sink_(sink), dialogue_(plan.dialogue), random_(plan.seed) {
    const uint32_t exchanges = std::max<uint32_t>(plan_.exchanges, 1);
    troubleExchange_ = static_cast<uint32_t>(random_.below(exchanges));
    nagleExchange_ = static_cast<uint32_t>(random_.below(exchanges));
    longIdleExchange_ = static_cast<uint32_t>(random_.below(exchanges));
}

bool ShortExchange::nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) {
    switch (phase_) {
        case Phase::Handshake:
            handshake(nowNs, out);
            phase_ = plan_.exchanges > 0 ? Phase::Exchange : Phase::Close;
            return true;
        case Phase::Exchange: {
            int64_t idleNs = exchange_ == 0 ? random_.between(50 * kUs, 2 * kMs) : random_.exponentialNs(plan_.meanIdleNs);
            if (plan_.longIdle && exchange_ == longIdleExchange_) {
                idleNs = random_.between(5 * kSecond, 30 * kSecond);
            }
            const bool nagle = plan_.nagleStall && exchange_ == nagleExchange_;
            const ResponseTrouble trouble = exchange_ == troubleExchange_ ? plan_.trouble : ResponseTrouble::None;
            const int64_t requestNs = request(nowNs + idleNs, nagle, out);
            response(requestNs, trouble, out);
            if (++exchange_ == plan_.exchanges) {
                phase_ = Phase::Close;
            }
            return true;
        }
        case Phase::Close: {
            const int64_t closedNs = close(nowNs + random_.between(100 * kUs, 2 * kMs), out);
            phase_ = Phase::Done;
            if (sink_ != nullptr) {
                sink_->finished(FinishedConnection{dialogue_.tuple(), dialogue_.nextSeq(Side::Client),
                                                   dialogue_.nextSeq(Side::Server), closedNs, plan_.closer,
                                                   plan_.resetClose});
            }
            return true;
        }
        case Phase::Done:
            return false;
    }
    return false;
}

// The capture point is near the server: the server's segments leave at once, the client's
// answers arrive one RTT after the server's segments they answer.
int64_t ShortExchange::handshake(int64_t startNs, std::vector<PlannedSegment>& out) {
    const int64_t rtt = plan_.rttNs;
    int64_t synNs = startNs;
    dialogue_.syn(out, synNs);
    if (plan_.collision) {
        // The server still has the old generation in TIME_WAIT and answers with an ACK for it;
        // the client resets that, and its SYN timer fires a second later.
        const FinishedConnection& earlier = *plan_.collision;
        dialogue_.stray(out, Side::Server, synNs + kKernelNs, tcpflag::kAck, earlier.serverNextSeq,
                        earlier.clientNextSeq);
        dialogue_.stray(out, Side::Client, synNs + kKernelNs + rtt, tcpflag::kRst, earlier.clientNextSeq, 0);
        synNs += kInitialRtoNs;
        dialogue_.syn(out, synNs);
    } else if (plan_.synDropped) {
        synNs += kInitialRtoNs + random_.between(0, 5 * kMs);
        dialogue_.syn(out, synNs);
    }
    const int64_t synAckNs = synNs + kKernelNs;
    dialogue_.synAck(out, synAckNs);
    int64_t ackNs = synAckNs + rtt;
    dialogue_.ack(out, Side::Client, ackNs);
    if (plan_.handshakeAckDropped) {
        // The accept queue was full: the server dropped the ACK and retransmits its SYN-ACK.
        const int64_t againNs = synAckNs + kInitialRtoNs;
        dialogue_.synAck(out, againNs);
        ackNs = againNs + rtt;
        dialogue_.ack(out, Side::Client, ackNs);
    }
    return ackNs;
}

int64_t ShortExchange::request(int64_t startNs, bool nagle, std::vector<PlannedSegment>& out) {
    if (!nagle) {
        dialogue_.send(out, Side::Client, startNs, static_cast<uint16_t>(random_.between(30, 200)));
        return startNs;
    }
    // Two small writes: the first goes out, the second waits (Nagle) until the first is
    // acknowledged, which the server does only when its delayed-ACK timer fires.
    dialogue_.send(out, Side::Client, startNs, static_cast<uint16_t>(random_.between(20, 120)));
    const int64_t delayedAckNs = startNs + 40 * kMs + random_.between(0, 2 * kMs);
    dialogue_.ack(out, Side::Server, delayedAckNs);
    const int64_t heldNs = delayedAckNs + plan_.rttNs + random_.between(5 * kUs, 40 * kUs);
    dialogue_.send(out, Side::Client, heldNs, static_cast<uint16_t>(random_.between(20, 300)));
    return heldNs;
}

uint32_t ShortExchange::responseBytes(ResponseTrouble trouble) {
    const uint32_t full = dialogue_.fullSegmentBytes();
    switch (trouble) {
        case ResponseTrouble::FastRetransmission:
            return full * static_cast<uint32_t>(random_.between(5, 6));
        case ResponseTrouble::ZeroWindow:
            return full * static_cast<uint32_t>(random_.between(5, 7));
        case ResponseTrouble::OutOfOrder:
            return full * static_cast<uint32_t>(random_.between(3, 4));
        case ResponseTrouble::RtoRetransmission:
        case ResponseTrouble::None:
            break;
    }
    // Mostly small answers (an API call, a cache hit), some pages, a few objects.
    const uint64_t kind = random_.below(1000);
    if (kind < 870) {
        return static_cast<uint32_t>(random_.between(20, 300));
    }
    if (kind < 985) {
        return static_cast<uint32_t>(random_.between(400, 1500));
    }
    return static_cast<uint32_t>(random_.between(1500, std::max<uint32_t>(plan_.maxResponseBytes, 1501)));
}

int64_t ShortExchange::serverDelayNs() {
    // The application's think time, below the 40 ms delayed-ACK timer so the response carries
    // the ACK of the request.
    return std::min<int64_t>(random_.exponentialNs(kMs), 30 * kMs);
}

int64_t ShortExchange::response(int64_t requestNs, ResponseTrouble trouble, std::vector<PlannedSegment>& out) {
    const int64_t rtt = plan_.rttNs;
    const uint32_t full = dialogue_.fullSegmentBytes();
    uint32_t remaining = responseBytes(trouble);
    struct Sent {
        uint32_t seq;
        uint16_t bytes;
        int64_t tsNs;
    };
    std::vector<Sent> sent;
    int64_t sendNs = requestNs + kKernelNs + serverDelayNs();
    // Segments the server may send before the client's first ACK (initial window of 10).
    const size_t firstFlight = trouble == ResponseTrouble::ZeroWindow ? 4 : 10;
    while (remaining > 0 && sent.size() < firstFlight) {
        const auto bytes = static_cast<uint16_t>(std::min(remaining, full));
        int64_t ts = sendNs;
        if (trouble == ResponseTrouble::OutOfOrder && sent.size() == 1) {
            ts += kSegmentGapNs + 30 * kUs;  // overtaken by the next segment
        }
        sent.push_back(Sent{dialogue_.send(out, Side::Server, ts, bytes), bytes, ts});
        remaining -= bytes;
        sendNs += kSegmentGapNs;
    }
    int64_t lastNs = sendNs;
    switch (trouble) {
        case ResponseTrouble::None:
            // The client acknowledges every second segment, and the last one.
            for (size_t i = 1; i + 1 < sent.size(); i += 2) {
                dialogue_.ackAt(out, Side::Client, sent[i].tsNs + rtt, sent[i].seq + sent[i].bytes);
            }
            lastNs = sent.back().tsNs + rtt;
            dialogue_.ack(out, Side::Client, lastNs);
            break;
        case ResponseTrouble::OutOfOrder: {
            // Each segment that overtook segment 1 makes the client repeat its ACK at once; when
            // segment 1 arrives, one ACK covers everything.
            int64_t latestNs = sent[1].tsNs;
            for (size_t i = 2; i < sent.size(); ++i) {
                if (sent[i].tsNs < sent[1].tsNs) {
                    dialogue_.ackAt(out, Side::Client, sent[i].tsNs + rtt, sent[1].seq);
                }
                latestNs = std::max(latestNs, sent[i].tsNs);
            }
            lastNs = latestNs + rtt;
            dialogue_.ack(out, Side::Client, lastNs);
            break;
        }
        case ResponseTrouble::RtoRetransmission: {
            // The last segment is lost after the capture point: nothing acknowledges it until
            // the server's RTO (at least 200 ms on Linux) fires.
            if (sent.size() >= 2) {
                const Sent& before = sent[sent.size() - 2];
                dialogue_.ackAt(out, Side::Client, before.tsNs + rtt, before.seq + before.bytes);
            }
            const Sent& lost = sent.back();
            const int64_t resendNs = lost.tsNs + 200 * kMs + rtt + random_.between(0, 200 * kMs);
            dialogue_.resend(out, Side::Server, resendNs, lost.seq, lost.bytes);
            lastNs = resendNs + rtt;
            dialogue_.ack(out, Side::Client, lastNs);
            break;
        }
        case ResponseTrouble::FastRetransmission: {
            // Segment 1 is lost: every later one draws a duplicate ACK, the third of which
            // triggers the fast retransmission.
            dialogue_.ackAt(out, Side::Client, sent[0].tsNs + rtt, sent[1].seq);
            for (size_t i = 2; i < sent.size(); ++i) {
                dialogue_.ackAt(out, Side::Client, sent[i].tsNs + rtt, sent[1].seq);
            }
            const int64_t resendNs = sent[4].tsNs + rtt + kKernelNs;
            dialogue_.resend(out, Side::Server, resendNs, sent[1].seq, sent[1].bytes);
            lastNs = resendNs + rtt;
            dialogue_.ack(out, Side::Client, lastNs);
            break;
        }
        case ResponseTrouble::ZeroWindow: {
            // The client's buffer is full: it acknowledges the first flight with a zero window
            // and opens it again when the application reads.
            const int64_t zeroNs = sent.back().tsNs + rtt;
            dialogue_.setWindow(Side::Client, 0);
            dialogue_.ack(out, Side::Client, zeroNs);
            dialogue_.setWindow(Side::Client, plan_.dialogue.rawWindow);
            const int64_t updateNs = zeroNs + random_.between(15 * kMs, 150 * kMs);
            dialogue_.ack(out, Side::Client, updateNs);
            sendNs = updateNs + rtt;
            while (remaining > 0) {
                const auto bytes = static_cast<uint16_t>(std::min(remaining, full));
                dialogue_.send(out, Side::Server, sendNs, bytes);
                remaining -= bytes;
                sendNs += kSegmentGapNs;
            }
            lastNs = sendNs + rtt;
            dialogue_.ack(out, Side::Client, lastNs);
            break;
        }
    }
    return lastNs;
}

int64_t ShortExchange::close(int64_t startNs, std::vector<PlannedSegment>& out) {
    const int64_t rtt = plan_.rttNs;
    if (plan_.resetClose) {
        dialogue_.reset(out, Side::Client, startNs, true);
        return startNs;
    }
    if (plan_.closer == Side::Client) {
        dialogue_.fin(out, Side::Client, startNs);
        int64_t serverFinNs = startNs + kKernelNs;
        if (!plan_.finAckTogether) {
            dialogue_.ack(out, Side::Server, serverFinNs);
            serverFinNs += random_.between(100 * kUs, 2 * kMs);
        }
        dialogue_.fin(out, Side::Server, serverFinNs);
        dialogue_.ack(out, Side::Client, serverFinNs + rtt);
        return serverFinNs + rtt;
    }
    dialogue_.fin(out, Side::Server, startNs);
    int64_t clientFinNs = startNs + rtt;
    if (!plan_.finAckTogether) {
        dialogue_.ack(out, Side::Client, clientFinNs);
        clientFinNs += random_.between(100 * kUs, 5 * kMs);
    }
    dialogue_.fin(out, Side::Client, clientFinNs);
    dialogue_.ack(out, Side::Server, clientFinNs + kKernelNs);
    return clientFinNs + kKernelNs;
}

}  // namespace tcpscope::bench
