#include "points/pair_clock_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace tcpscope {
namespace {

// The clocks' resolution in the captures we read (pcap with microseconds): no offset is known better.
constexpr double kTimestampResolutionMs = 0.001;

// A segment's time at the first point and how much later the second point's clock read it.
struct TimedDifference {
    int64_t firstTsNs = 0;
    double differenceNs = 0;
};

// The IP addresses a segment went from and to: the hosts on either side of the pair's points.
using HostDirection = std::pair<IpAddress, IpAddress>;

HostDirection hostDirection(const SegmentIdentity& id) {
    const IpAddress& low = id.flow.low.address;
    const IpAddress& high = id.flow.high.address;
    return id.sourceIsLow ? HostDirection{low, high} : HostDirection{high, low};
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Nearest rank: the value below which `share` of the values lie.
double percentile(const std::vector<double>& sorted, double share) {
    const auto rank = static_cast<size_t>(std::ceil(share * static_cast<double>(sorted.size())));
    return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

std::vector<double> differences(const std::vector<TimedDifference>& timed) {
    std::vector<double> values;
    values.reserve(timed.size());
    for (const TimedDifference& t : timed) {
        values.push_back(t.differenceNs);
    }
    return values;
}

// The segments one way and the other, each of the pair's host directions put on the side it
// leaves from (first -> second when its differences are the larger). A host direction whose
// reverse was not seen cannot be placed yet: it goes to `unplaced`.
struct SortedDirections {
    std::vector<TimedDifference> firstToSecond;
    std::vector<TimedDifference> secondToFirst;
    std::vector<TimedDifference> unplaced;
};

SortedDirections sortDirections(const std::vector<SegmentPair>& pairs) {
    std::map<HostDirection, std::vector<TimedDifference>> byDirection;
    for (const SegmentPair& pair : pairs) {
        byDirection[hostDirection(pair.id)].push_back(
            {pair.firstPointTsNs, static_cast<double>(pair.secondPointTsNs - pair.firstPointTsNs)});
    }
    SortedDirections sorted;
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    for (auto& entry : byDirection) {
        const HostDirection& direction = entry.first;
        std::vector<TimedDifference>& timed = entry.second;
        const auto reverse = byDirection.find({direction.second, direction.first});
        auto& into = [&]() -> std::vector<TimedDifference>& {
            if (reverse == byDirection.end()) {
                return sorted.unplaced;
            }
            return median(differences(timed)) > median(differences(reverse->second)) ? sorted.firstToSecond
                                                                                     : sorted.secondToFirst;
        }();
        into.insert(into.end(), timed.begin(), timed.end());
    }
    return sorted;
}

// The middle of the lowest difference first -> second (offset + delay) and the highest second ->
// first (offset - delay), in one window of time.
double middleOffsetNs(const std::vector<double>& forward, const std::vector<double>& backward) {
    return (*std::min_element(forward.begin(), forward.end()) + *std::max_element(backward.begin(), backward.end())) /
           2;
}

struct Window {
    double midNs = 0;  // from the origin
    double offsetNs = 0;
};

// The middle offset in up to 16 windows of time, each with both directions seen.
std::vector<Window> windowOffsets(const SortedDirections& sorted, int64_t originNs, int64_t endNs) {
    const size_t fewer = std::min(sorted.firstToSecond.size(), sorted.secondToFirst.size());
    const size_t count = std::clamp<size_t>(fewer / 8, 1, 16);
    const double spanNs = static_cast<double>(endNs - originNs) + 1;
    std::vector<std::vector<double>> forward(count);
    std::vector<std::vector<double>> backward(count);
    std::vector<double> timeSum(count, 0);
    std::vector<size_t> timeCount(count, 0);
    auto windowOf = [&](int64_t tsNs) {
        return std::min(
            count - 1, static_cast<size_t>(static_cast<double>(tsNs - originNs) / spanNs * static_cast<double>(count)));
    };
    auto add = [&](const std::vector<TimedDifference>& timed, std::vector<std::vector<double>>& into) {
        for (const TimedDifference& t : timed) {
            const size_t w = windowOf(t.firstTsNs);
            into[w].push_back(t.differenceNs);
            timeSum[w] += static_cast<double>(t.firstTsNs - originNs);
            ++timeCount[w];
        }
    };
    add(sorted.firstToSecond, forward);
    add(sorted.secondToFirst, backward);
    std::vector<Window> windows;
    for (size_t w = 0; w < count; ++w) {
        if (!forward[w].empty() && !backward[w].empty()) {
            windows.push_back(
                {timeSum[w] / static_cast<double>(timeCount[w]), middleOffsetNs(forward[w], backward[w])});
        }
    }
    return windows;
}

OneWayDelay oneWayDelay(const std::vector<TimedDifference>& timed, const LinearClock& clock, double sign) {
    std::vector<double> delaysMs;
    delaysMs.reserve(timed.size());
    for (const TimedDifference& t : timed) {
        delaysMs.push_back(sign * (t.differenceNs - clock.offsetAtNs(t.firstTsNs)) / 1e6);
    }
    std::sort(delaysMs.begin(), delaysMs.end());
    return {delaysMs.size(), percentile(delaysMs, 0.5), percentile(delaysMs, 0.99)};
}

// The drift from the windows' offsets by least squares, with its standard error; a drift within
// three standard errors of zero is taken as none, so that a short capture does not extrapolate noise.
struct DriftFit {
    double drift = 0;
    double errorPpm = 0;  // of the drift given: one standard error, or three when taken as none
};

DriftFit fitDrift(const std::vector<Window>& windows) {
    const auto n = static_cast<double>(windows.size());
    double meanT = 0;
    double meanO = 0;
    for (const Window& w : windows) {
        meanT += w.midNs / n;
        meanO += w.offsetNs / n;
    }
    double sxx = 0;
    double sxy = 0;
    for (const Window& w : windows) {
        sxx += (w.midNs - meanT) * (w.midNs - meanT);
        sxy += (w.midNs - meanT) * (w.offsetNs - meanO);
    }
    const double slope = sxx > 0 ? sxy / sxx : 0;
    double residuals = 0;
    for (const Window& w : windows) {
        const double r = w.offsetNs - (meanO + slope * (w.midNs - meanT));
        residuals += r * r;
    }
    const double slopeError = sxx > 0 ? std::sqrt(residuals / (n - 2)) / std::sqrt(sxx) : 0;
    if (std::abs(slope) > 3 * slopeError) {
        return {slope, slopeError * 1e6};
    }
    return {0, 3 * slopeError * 1e6};
}

// The differences with the drift taken out, as at the origin.
std::vector<double> detrended(const std::vector<TimedDifference>& timed, int64_t originNs, double drift) {
    std::vector<double> values;
    values.reserve(timed.size());
    for (const TimedDifference& t : timed) {
        values.push_back(t.differenceNs - drift * static_cast<double>(t.firstTsNs - originNs));
    }
    std::sort(values.begin(), values.end());
    return values;
}

// How sure the floor of sorted differences is: the gap to the third lowest (the floor's own
// sampling error is of that order when few segments met no queue).
double floorSpacingNs(const std::vector<double>& sortedAscending) {
    return sortedAscending[std::min<size_t>(2, sortedAscending.size() - 1)] - sortedAscending.front();
}

}  // namespace

std::optional<PairClockFit> fitPairClock(const std::vector<SegmentPair>& pairs) {
    if (pairs.empty()) {
        return std::nullopt;
    }
    PairClockFit fit;
    fit.matched = pairs.size();
    int64_t originNs = pairs.front().firstPointTsNs;
    int64_t endNs = originNs;
    for (const SegmentPair& pair : pairs) {
        originNs = std::min(originNs, pair.firstPointTsNs);
        endNs = std::max(endNs, pair.firstPointTsNs);
    }
    fit.clock.originNs = originNs;
    SortedDirections sorted = sortDirections(pairs);
    fit.separable = !sorted.firstToSecond.empty() && !sorted.secondToFirst.empty();
    if (!fit.separable) {
        // One way only: every difference is the offset plus an unknown delay (or minus it).
        double lowestNs = static_cast<double>(pairs.front().secondPointTsNs - pairs.front().firstPointTsNs);
        for (const SegmentPair& pair : pairs) {
            lowestNs = std::min(lowestNs, static_cast<double>(pair.secondPointTsNs - pair.firstPointTsNs));
        }
        fit.clock.offsetNs = lowestNs;
        return fit;
    }
    // The drift from time windows; then the offset from the lowest difference one way and the
    // highest the other over the whole capture, the drift taken out: queueing only adds delay, so
    // the extremes of many segments are far surer than the middle of a few windows'.
    const std::vector<Window> windows = windowOffsets(sorted, originNs, endNs);
    DriftFit drift;
    if (windows.size() >= 3) {
        drift = fitDrift(windows);
        fit.driftMeasured = true;
        fit.driftUncertaintyPpm = drift.errorPpm;
    }
    fit.clock.drift = drift.drift;
    const std::vector<double> forward = detrended(sorted.firstToSecond, originNs, drift.drift);
    std::vector<double> backward = detrended(sorted.secondToFirst, originNs, drift.drift);
    fit.clock.offsetNs = (forward.front() + backward.back()) / 2;
    std::reverse(backward.begin(), backward.end());
    for (double& value : backward) {
        value = -value;  // ascending from the highest, for the spacing at its floor
    }
    // A drift error tilts the line about the middle of the capture: at the origin, half the span's worth.
    const double tiltMs = drift.errorPpm * 1e-6 * static_cast<double>(endNs - originNs) / 2 / 1e6;
    fit.uncertaintyMs =
        std::sqrt(std::pow(floorSpacingNs(forward) / 2e6, 2) + std::pow(floorSpacingNs(backward) / 2e6, 2) +
                  tiltMs * tiltMs + kTimestampResolutionMs * kTimestampResolutionMs);
    // A host direction seen one way only is placed by the offset now known.
    for (const TimedDifference& t : sorted.unplaced) {
        (t.differenceNs > fit.clock.offsetAtNs(t.firstTsNs) ? sorted.firstToSecond : sorted.secondToFirst).push_back(t);
    }
    fit.firstToSecond = oneWayDelay(sorted.firstToSecond, fit.clock, 1);
    fit.secondToFirst = oneWayDelay(sorted.secondToFirst, fit.clock, -1);
    return fit;
}

void remeasureDelays(PairClockFit& fit, const std::vector<SegmentPair>& pairs, const LinearClock& clock) {
    std::vector<TimedDifference> firstToSecond;
    std::vector<TimedDifference> secondToFirst;
    for (const SegmentPair& pair : pairs) {
        const TimedDifference timed{pair.firstPointTsNs, static_cast<double>(pair.secondPointTsNs - pair.firstPointTsNs)};
        (timed.differenceNs > clock.offsetAtNs(timed.firstTsNs) ? firstToSecond : secondToFirst).push_back(timed);
    }
    fit.clock = clock;
    fit.firstToSecond = firstToSecond.empty() ? std::nullopt : std::optional(oneWayDelay(firstToSecond, clock, 1));
    fit.secondToFirst = secondToFirst.empty() ? std::nullopt : std::optional(oneWayDelay(secondToFirst, clock, -1));
}

}  // namespace tcpscope
