#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "points/linear_clock.hpp"
#include "points/segment_matching.hpp"

namespace tcpscope {

/// One-way delays of the segments that went one way between two points.
struct OneWayDelay {
    uint64_t packets = 0;
    double medianMs = 0;
    double p99Ms = 0;
};

/// The clock of a pair's second point against its first, from the segments both saw.
struct PairClockFit {
    uint64_t matched = 0;  ///< segments seen at both points
    /// Both directions were seen, so offset and one-way delay could be told apart (assuming the
    /// delay is the same both ways, as NTP does). False: `clock` is the offset that a zero delay
    /// would give, and `uncertaintyMs` is not known.
    bool separable = false;
    bool driftMeasured = false;  ///< enough time windows with both directions to fit a drift (else drift 0)
    /// clock(second) - clock(first), as a function of the first point's time.
    LinearClock clock;
    /// Of the offset: the spacing of the differences at their floor, the drift's error over half the
    /// capture, and the clocks' 1 us, in quadrature.
    std::optional<double> uncertaintyMs;
    std::optional<double> driftUncertaintyPpm;
    /// Segments first seen at the first point, then at the second, and the other way; only when separable.
    std::optional<OneWayDelay> firstToSecond;
    std::optional<OneWayDelay> secondToFirst;
};

/// Fits the second point's clock against the first's from `pairs` (matchSegments). Each direction
/// between two hosts is put on the side of the pair it leaves from by which way its time
/// differences lean. The drift is a least-squares line through the middle of the lowest difference
/// one way and the highest the other in time windows; the offset, with that drift taken out, the
/// middle of the lowest and highest over all segments (queueing only adds delay). Without any
/// pair, std::nullopt.
std::optional<PairClockFit> fitPairClock(const std::vector<SegmentPair>& pairs);

/// The one-way delays of `pairs` each way with `clock` as the pair's clock (a clock given by the
/// user, not fitted): a segment is first -> second when its difference exceeds the offset.
/// Sets fit.clock and the delays; a direction no segment went is nullopt.
void remeasureDelays(PairClockFit& fit, const std::vector<SegmentPair>& pairs, const LinearClock& clock);

}  // namespace tcpscope
