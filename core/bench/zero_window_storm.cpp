#include "bench/zero_window_storm.hpp"

#include <algorithm>

namespace tcpscope::bench {

namespace {
constexpr int64_t kUs = 1'000;
constexpr int64_t kRttNs = 300 * kUs;
constexpr uint64_t kProbesPerStep = 256;
constexpr uint32_t kBurstSegments = 8;
}  // namespace

ZeroWindowStorm::ZeroWindowStorm(const DialogueSettings& settings, uint64_t seed, uint32_t periods,
                                 uint64_t probesPerPeriod, int64_t probeIntervalNs)
    : dialogue_(settings),
      random_(seed),
      periods_(std::max<uint32_t>(periods, 1)),
      probesPerPeriod_(std::max<uint64_t>(probesPerPeriod, 1)),
      probeIntervalNs_(std::max<int64_t>(probeIntervalNs, 2 * kUs)),
      openWindow_(settings.rawWindow) {}

bool ZeroWindowStorm::nextStep(int64_t nowNs, std::vector<PlannedSegment>& out) {
    const int64_t startNs = std::max(nowNs, nextNs_);
    switch (phase_) {
        case Phase::Handshake:
            dialogue_.syn(out, startNs);
            dialogue_.synAck(out, startNs + 20 * kUs);
            dialogue_.ack(out, Side::Client, startNs + 20 * kUs + kRttNs);
            dialogue_.send(out, Side::Client, startNs + 40 * kUs + kRttNs, 200);
            nextNs_ = startNs + 40 * kUs + 2 * kRttNs;
            phase_ = Phase::Burst;
            return true;
        case Phase::Burst: {
            // The server sends until the client's buffer is full; the client stops reading and
            // acknowledges the last segment with a zero window.
            int64_t ts = startNs;
            for (uint32_t i = 0; i < kBurstSegments; ++i) {
                dialogue_.send(out, Side::Server, ts, dialogue_.fullSegmentBytes());
                ts += 12 * kUs;
            }
            dialogue_.setWindow(Side::Client, 0);
            dialogue_.ack(out, Side::Client, ts + kRttNs);
            nextNs_ = ts + kRttNs + probeIntervalNs_;
            probed_ = 0;
            phase_ = Phase::Probes;
            return true;
        }
        case Phase::Probes: {
            int64_t ts = startNs;
            const uint64_t end = std::min(probesPerPeriod_, probed_ + kProbesPerStep);
            for (; probed_ < end; ++probed_) {
                // One byte at the next sequence number, which the closed window cannot take.
                dialogue_.resend(out, Side::Server, ts, dialogue_.nextSeq(Side::Server), 1);
                dialogue_.ack(out, Side::Client, ts + random_.between(20 * kUs, 60 * kUs));
                ts += probeIntervalNs_;
            }
            nextNs_ = ts;
            if (probed_ == probesPerPeriod_) {
                // The application reads: a window update, and the next period starts with a burst.
                dialogue_.setWindow(Side::Client, openWindow_);
                dialogue_.ack(out, Side::Client, ts);
                nextNs_ = ts + kRttNs;
                phase_ = ++period_ < periods_ ? Phase::Burst : Phase::Close;
            }
            return true;
        }
        case Phase::Close:
            dialogue_.fin(out, Side::Server, startNs);
            dialogue_.fin(out, Side::Client, startNs + kRttNs);
            dialogue_.ack(out, Side::Server, startNs + kRttNs + 20 * kUs);
            phase_ = Phase::Done;
            return true;
        case Phase::Done:
            return false;
    }
    return false;
}

}  // namespace tcpscope::bench
