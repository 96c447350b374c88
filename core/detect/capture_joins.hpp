#pragma once
#include <cstdint>
#include <vector>

#include "engine/segment_observer.hpp"

namespace tcpscope {

/// Where the file's clock says more than one recording went into it, from the times of its TCP
/// segments:
/// - a join: time steps forward by kJoinGapNs or more, no connection seen before the step shows
///   again after it, and some of them were waiting for data to be acknowledged when it came. TCP
///   sends waiting data again within TCP_RTO_MAX (120 s on Linux; RFC 6298 allows 60 s), so a
///   connection left waiting that long without a packet, never to be heard again, while a new set
///   of connections begins, is where one recording stopped and another began (files concatenated
///   or merged, a capture stopped and restarted into the same file);
/// - a clock jump: a step of kClockJumpNs or more either way, more than any capture runs between
///   two packets (files merged across years, a clock set wrong then corrected).
/// CaptureQualityDetector owns it, counts the connections waiting at a large step (its own state
/// per connection side knows), and says what it found.
class CaptureJoins {
public:
    static constexpr int64_t kJoinGapNs = 300'000'000'000;                     // 5 min: TCP_RTO_MAX and a margin
    static constexpr int64_t kClockJumpNs = 30LL * 24 * 3600 * 1'000'000'000;  // 30 days
    /// Steps kept at once (the first ones).
    static constexpr size_t kListed = 16;
    /// Large steps looked at (each costs the caller a pass over the connections): the first ones.
    static constexpr size_t kLooked = 64;

    /// One step of the file's clock between two consecutive segments.
    struct Step {
        uint32_t frame = 0;    ///< the segment after the step
        int64_t stepNs = 0;    ///< negative: back
        uint32_t before = 0;   ///< connections seen before the step
        uint32_t waiting = 0;  ///< of them, waiting for data to be acknowledged at the step
        bool spanned = false;  ///< a connection seen before it showed after it
    };

    /// Whether the step from the segment before `event` to it is one to keep (then the caller
    /// counts what waits and calls addStep() before onSegment()).
    [[nodiscard]] bool largeStepBefore(const SegmentEvent& event) const;
    /// Keeps the step before `event`, `before` connections seen then, `waiting` of them waiting.
    void addStep(const SegmentEvent& event, uint32_t before, uint32_t waiting);
    /// Notes the segment's time, and that its connection spans the steps after its first frame.
    void onSegment(const SegmentEvent& event);

    /// The joins (forward steps that no connection spans, with connections left waiting), in order.
    [[nodiscard]] std::vector<Step> joins() const;
    /// The steps of kClockJumpNs or more, either way, in order.
    [[nodiscard]] std::vector<Step> clockJumps() const;

private:
    [[nodiscard]] static bool isJump(int64_t stepNs) { return stepNs >= kClockJumpNs || stepNs <= -kClockJumpNs; }

    // The steps that may still be joins (forward, not spanned yet, connections waiting at them) and
    // the clock jumps: the first kListed.
    std::vector<Step> steps_;
    size_t looked_ = 0;
    int64_t lastTsNs_ = 0;
    bool any_ = false;
};

}  // namespace tcpscope
