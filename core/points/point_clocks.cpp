#include "points/point_clocks.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace tcpscope {
namespace {

// A link is better than another when it separates offset from delay, then when it matched more.
std::tuple<bool, uint64_t> strength(const PointLink& link) {
    return {link.fit.separable, link.fit.matched};
}

std::optional<double> addInQuadrature(std::optional<double> a, std::optional<double> b) {
    if (!a || !b) {
        return std::nullopt;
    }
    return std::hypot(*a, *b);
}

// The clock of `to` against the reference, from that of `from` and their link. Both offsets are
// lines in time, so the sum is the line through its values at two moments.
LinearClock composed(const LinearClock& fromClock, const PointLink& link, bool forward) {
    const int64_t originNs = fromClock.originNs;
    const int64_t laterNs = originNs + 1'000'000'000;
    auto offsetAt = [&](int64_t referenceNs) {
        const int64_t fromNs = referenceNs + std::llround(fromClock.offsetAtNs(referenceNs));
        // The link gives clock(second) - clock(first) against the first's time.
        const double linkOffsetNs = forward ? link.fit.clock.offsetAtNs(fromNs)
                                            : -link.fit.clock.offsetAtNs(link.fit.clock.toOtherClockNs(fromNs));
        return fromClock.offsetAtNs(referenceNs) + linkOffsetNs;
    };
    const double atOrigin = offsetAt(originNs);
    const double atLater = offsetAt(laterNs);
    return {originNs, atOrigin, (atLater - atOrigin) / static_cast<double>(laterNs - originNs)};
}

}  // namespace

std::vector<PointClock> chainPointClocks(uint32_t pointCount, const std::vector<PointLink>& links,
                                         int64_t referenceOriginNs) {
    std::vector<PointClock> clocks(pointCount);
    if (pointCount == 0) {
        return clocks;
    }
    PointClock& reference = clocks[0];
    reference.reference = true;
    reference.clock.originNs = referenceOriginNs;
    reference.linked = true;
    reference.separable = true;
    reference.driftMeasured = true;
    reference.uncertaintyMs = 0.0;
    reference.driftUncertaintyPpm = 0.0;
    // Prim's spanning tree from the reference, the strongest link first.
    while (true) {
        const PointLink* best = nullptr;
        bool bestForward = true;
        for (const PointLink& link : links) {
            const bool firstKnown = clocks[link.first].linked;
            const bool secondKnown = clocks[link.second].linked;
            if (firstKnown == secondKnown) {
                continue;
            }
            if (best == nullptr || strength(link) > strength(*best)) {
                best = &link;
                bestForward = firstKnown;
            }
        }
        if (best == nullptr) {
            break;
        }
        const uint32_t fromIndex = bestForward ? best->first : best->second;
        const uint32_t toIndex = bestForward ? best->second : best->first;
        const PointClock& from = clocks[fromIndex];
        PointClock& to = clocks[toIndex];
        to.linked = true;
        to.separable = from.separable && best->fit.separable;
        to.driftMeasured = from.driftMeasured && best->fit.driftMeasured;
        to.clock = composed(from.clock, *best, bestForward);
        to.uncertaintyMs = to.separable ? addInQuadrature(from.uncertaintyMs, best->fit.uncertaintyMs) : std::nullopt;
        to.driftUncertaintyPpm = addInQuadrature(from.driftUncertaintyPpm, best->fit.driftUncertaintyPpm);
        to.via = from.via;
        if (!from.reference) {
            to.via.push_back(fromIndex);
        }
    }
    return clocks;
}

PointClock overrideClock(std::vector<PointClock>& clocks, uint32_t point, const GivenClock& given,
                         int64_t referenceOriginNs) {
    const PointClock fitted = clocks[point];
    const LinearClock givenClock{referenceOriginNs, given.offsetMs * 1e6, given.driftPpm * 1e-6};
    // Every clock is a line from the reference's origin: what moves the given point's line moves
    // those of the points fitted through it by as much.
    const double offsetShiftNs = givenClock.offsetAtNs(referenceOriginNs) - fitted.clock.offsetAtNs(referenceOriginNs);
    const double driftShift = givenClock.drift - fitted.clock.drift;
    for (PointClock& other : clocks) {
        if (fitted.linked && std::find(other.via.begin(), other.via.end(), point) != other.via.end()) {
            other.clock.offsetNs = other.clock.offsetAtNs(referenceOriginNs) + offsetShiftNs;
            other.clock.originNs = referenceOriginNs;
            other.clock.drift += driftShift;
            other.uncertaintyMs = std::nullopt;
        }
    }
    PointClock& overridden = clocks[point];
    overridden.clock = givenClock;
    overridden.linked = true;
    overridden.separable = true;
    overridden.driftMeasured = true;
    overridden.uncertaintyMs = std::nullopt;
    overridden.driftUncertaintyPpm = std::nullopt;
    overridden.via.clear();
    overridden.overridden = true;
    return fitted;
}

LinearClock relativeClock(const PointClock& first, const PointClock& second) {
    // At two moments of the first point's clock, a second apart.
    const int64_t originNs = first.clock.originNs + std::llround(first.clock.offsetAtNs(first.clock.originNs));
    const int64_t laterNs = originNs + 1'000'000'000;
    auto offsetAt = [&](int64_t firstNs) {
        const int64_t referenceNs = first.toReferenceNs(firstNs);
        return second.clock.offsetAtNs(referenceNs) - first.clock.offsetAtNs(referenceNs);
    };
    const double atOrigin = offsetAt(originNs);
    return {originNs, atOrigin, (offsetAt(laterNs) - atOrigin) / static_cast<double>(laterNs - originNs)};
}

}  // namespace tcpscope
