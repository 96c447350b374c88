#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "points/capture_point.hpp"
#include "points/linear_clock.hpp"
#include "points/pair_clock_fit.hpp"

namespace tcpscope {

/// Two capture points that saw some of the same segments: one hop of the path (or two points on
/// one host), with the fit of the second's clock against the first's.
struct PointLink {
    uint32_t first = 0;
    uint32_t second = 0;
    PairClockFit fit;
};

/// One capture point's clock against the reference point's (the first point).
struct PointClock {
    bool reference = false;
    /// Tied to the reference through a chain of links (each one with segments in common).
    bool linked = false;
    /// Every link of the chain saw both directions, so the offset is not confused with a delay.
    bool separable = false;
    bool driftMeasured = false;
    /// clock(point) - clock(reference), as a function of the reference's time; zero when not linked.
    LinearClock clock;
    std::optional<double> uncertaintyMs;
    std::optional<double> driftUncertaintyPpm;
    std::vector<uint32_t> via;  ///< the points between it and the reference, nearest the reference first
    /// Given by the user (GivenClock), not fitted; the points chained through it moved with it.
    bool overridden = false;

    /// A time of this point's clock on the reference's.
    [[nodiscard]] int64_t toReferenceNs(int64_t tsNs) const { return clock.toOtherClockNs(tsNs); }
};

/// The clock of each of `pointCount` points against point 0, through the links that tie it to
/// point 0 by the surest chain: links that saw both directions before those that did not, then the
/// most segments in common. Offsets and drifts add up along the chain; their uncertainties add in
/// quadrature. Offsets are given at `referenceOriginNs` (the reference's first packet).
std::vector<PointClock> chainPointClocks(uint32_t pointCount, const std::vector<PointLink>& links,
                                         int64_t referenceOriginNs);

/// Replaces the clock of `point` (not the reference) by `given` (offset at `referenceOriginNs`):
/// linked and separable, without an uncertainty; the points chained to the reference through it
/// move by as much. Returns the fitted clock it replaced.
PointClock overrideClock(std::vector<PointClock>& clocks, uint32_t point, const GivenClock& given,
                         int64_t referenceOriginNs);

/// clock(second) - clock(first) as a function of the first point's time, from their clocks against
/// the reference (for the one-way delays between two points whose clocks were given).
LinearClock relativeClock(const PointClock& first, const PointClock& second);

}  // namespace tcpscope
