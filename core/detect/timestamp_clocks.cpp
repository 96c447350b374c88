#include "detect/timestamp_clocks.hpp"

#include <algorithm>
#include <cstdlib>

namespace tcpscope {

namespace {

constexpr int64_t kNsPerUs = 1000;

uint32_t saturatingUs(int64_t ns) {
    return static_cast<uint32_t>(std::min<int64_t>(ns / kNsPerUs, UINT32_MAX));
}

}  // namespace

void TimestampClocks::onSegment(const SegmentEvent& event) {
    const TcpOptions& options = event.segment.options;
    if (!options.hasTimestamp) {
        return;
    }
    Steps* const sides = steps_.allOf(event.connection.id);
    Steps& own = sides[sideIndex(event.sender)];
    if (own.count > 0 && options.tsVal == own.lastValue) {
        return;  // the clock has not ticked since the last step
    }
    const uint32_t ticks = options.tsVal - own.lastValue;  // modulo 2^32: the clock may wrap
    const int64_t spanNs = event.tsNs - own.lastNs;
    const bool forward = ticks < 0x80000000U && spanNs >= 0;
    if (own.count == 0 || !forward) {
        // The first step, or a clock that went back (a retransmission's old TSval, a reordered
        // packet): start again from here.
        own = Steps{event.tsNs, options.tsVal, 0, 0, own.disagreementUs, 1};
        return;
    }
    if (own.count >= 2 && ticks >= kMinTicks && own.ticksBefore >= kMinTicks) {
        // a = ticksBefore over spanBefore, b = ticks over span: the rate (a + b) / (spanBefore +
        // span) fits both as well as any, and leaves this much of one interval unexplained.
        const double a = own.ticksBefore;
        const double b = ticks;
        const double spanBefore = static_cast<double>(own.spanBeforeUs) * kNsPerUs;
        const auto disagreementNs =
            static_cast<int64_t>(std::abs(a * static_cast<double>(spanNs) - b * spanBefore) / (a + b));
        own.disagreementUs = std::max(own.disagreementUs, saturatingUs(disagreementNs));
        const Steps& peer = sides[sideIndex(otherSide(event.sender))];
        const int64_t weakerNs = int64_t{std::min(own.disagreementUs, peer.disagreementUs)} * kNsPerUs;
        if (weakerNs >= kMinDisagreementNs && contradicted_.insert(event.connection.id).second &&
            listed_.size() < kListed) {
            listed_.push_back(Contradiction{event.connection.id, event.frame,
                                            int64_t{std::max(own.disagreementUs, peer.disagreementUs)} * kNsPerUs});
        }
    }
    own.ticksBefore = ticks;
    own.spanBeforeUs = saturatingUs(spanNs);
    own.lastNs = event.tsNs;
    own.lastValue = options.tsVal;
    own.count = 2;
}

}  // namespace tcpscope
