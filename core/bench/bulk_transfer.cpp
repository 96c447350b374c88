#include "bench/bulk_transfer.hpp"

#include <algorithm>

namespace tcpscope::bench {

namespace {
constexpr int64_t kUs = 1'000;
// A 1514-byte frame at 10 Gbit/s, about.
constexpr int64_t kSegmentGapNs = 1'300;
// The receiver acknowledges right after the second segment arrives (capture at the receiver).
constexpr int64_t kAckDelayNs = 8 * kUs;
}  // namespace

BulkTransfer::BulkTransfer(const BulkTransferPlan& plan) : plan_(plan), dialogue_(plan.dialogue) {}

bool BulkTransfer::nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) {
    const Side sender = plan_.sender;
    const Side receiver = peerOf(sender);
    switch (phase_) {
        case Phase::Handshake: {
            dialogue_.syn(out, nowNs);
            dialogue_.synAck(out, nowNs + plan_.rttNs);
            const int64_t ackNs = nowNs + plan_.rttNs + 20 * kUs;
            dialogue_.ack(out, Side::Client, ackNs);
            // The client asks for the object (or announces the upload).
            dialogue_.send(out, Side::Client, ackNs + 10 * kUs, 180);
            nextFlightNs_ = ackNs + 10 * kUs + plan_.rttNs;
            phase_ = Phase::Flights;
            return true;
        }
        case Phase::Flights: {
            int64_t sendNs = std::max(nowNs, nextFlightNs_);
            const uint16_t full = dialogue_.fullSegmentBytes();
            const uint64_t flight = std::min<uint64_t>(plan_.flightSegments, plan_.segments - sent_);
            for (uint64_t i = 0; i < flight; ++i) {
                dialogue_.send(out, sender, sendNs, full);
                if (i % 2 == 1 || i + 1 == flight) {
                    dialogue_.ack(out, receiver, sendNs + kAckDelayNs);
                }
                sendNs += kSegmentGapNs;
            }
            sent_ += flight;
            nextFlightNs_ = std::max(sendNs + plan_.rttNs, nextFlightNs_ + plan_.flightIntervalNs);
            if (sent_ >= plan_.segments) {
                phase_ = Phase::Close;
            }
            return true;
        }
        case Phase::Close: {
            // The sender closes when it is done; the receiver closes right back.
            const int64_t finNs = std::max(nowNs, nextFlightNs_ - plan_.rttNs) + 50 * kUs;
            dialogue_.fin(out, sender, finNs);
            dialogue_.fin(out, receiver, finNs + kAckDelayNs);
            dialogue_.ack(out, sender, finNs + kAckDelayNs + plan_.rttNs);
            phase_ = Phase::Done;
            return true;
        }
        case Phase::Done:
            return false;
    }
    return false;
}

}  // namespace tcpscope::bench
