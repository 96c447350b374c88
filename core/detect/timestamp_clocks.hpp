#pragma once
#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <vector>

#include "detect/support/connection_states.hpp"
#include "engine/segment_observer.hpp"

namespace tcpscope {

/// Checks the capture's clock against the hosts' own: the TCP timestamp option (RFC 7323) carries
/// each sender's clock, which ticks at a steady rate (1 ms on Linux, 1-1000 ms elsewhere). Between
/// three steps of a sender's TSval, frame times (t1, t2, t3) and ticks (a = v2 - v1, b = v3 - v2)
/// must fit one rate; the best single rate for both intervals still leaves
///     |a * (t3 - t2) - b * (t2 - t1)| / (a + b)
/// unexplained, which only a packet held that much longer than its neighbour on the way to the
/// capture point could explain. When both hosts of a connection show at least kMinDisagreementNs of
/// it, two independent clocks agree with each other and not with the file: the frame times were
/// rewritten or made up (a test trace, a careless editcap), and the time measured between the
/// connection's packets is not real. One host alone is not enough: a middlebox that injects packets
/// in a host's name (with its own clock) shows the same on one side.
/// DetectorSet updates it before the detectors see a segment; the detectors that measure time read
/// contradicted().
class TimestampClocks {
public:
    static constexpr int64_t kMinDisagreementNs = 250'000'000;
    static constexpr uint32_t kMinTicks = 10;  // per interval: fewer could be the clock's granularity
    static constexpr size_t kListed = 20;      // contradictions kept for the evidence

    /// Where a connection's clocks first disagreed with the frame times, both sides shown.
    struct Contradiction {
        uint32_t connection = 0;
        uint32_t frame = 0;          // the third step of the side that completed the pair
        int64_t disagreementNs = 0;  // the larger of the two sides'
    };

    void onSegment(const SegmentEvent& event);
    void prefetch(const SegmentEvent& event) const {
        if (event.segment.options.hasTimestamp) {  // onSegment reads nothing for the others
            steps_.prefetch(event.connection.id);
        }
    }
    void onRetire(uint32_t connection) { steps_.release(connection); }
    void onEnd() { steps_.clear(); }

    /// Whether both hosts' clocks contradict the frame times of `connection` (so far).
    [[nodiscard]] bool contradicted(uint32_t connection) const { return contradicted_.contains(connection); }
    [[nodiscard]] size_t contradictedCount() const { return contradicted_.size(); }
    /// The first kListed contradicted connections, in the order they showed.
    [[nodiscard]] const std::vector<Contradiction>& listed() const { return listed_; }

private:
    // One sender's last TSval step (28 B): when its TSval last changed, to what, and the interval
    // before that (ticks and microseconds).
    struct __attribute__((packed, aligned(4))) Steps {
        int64_t lastNs = 0;
        uint32_t lastValue = 0;
        uint32_t ticksBefore = 0;     // a: ticks of the interval that ended at lastNs
        uint32_t spanBeforeUs = 0;    // t2 - t1 in microseconds (saturating)
        uint32_t disagreementUs = 0;  // the largest this side showed (saturating)
        uint8_t count = 0;            // steps seen, up to 2
    };
    static_assert(sizeof(Steps) == 28);

    ConnectionStates<Steps, 2> steps_;
    absl::flat_hash_set<uint32_t> contradicted_;
    std::vector<Contradiction> listed_;
};

}  // namespace tcpscope
