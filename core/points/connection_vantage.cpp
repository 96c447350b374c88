#include "points/connection_vantage.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace tcpscope {
namespace {

constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

// What one point saw of one connection.
struct PointView {
    uint64_t segments = 0;
    uint8_t highestTtl = 0;  // of either endpoint: the sender's own host sees the TTL it sent with
    // Per direction (index: sourceIsLow): payload bytes, and when its first data segment was seen
    // on the reference clock.
    std::array<uint64_t, 2> payloadBytes{};
    std::array<int64_t, 2> firstDataNs{kNever, kNever};
};

// Whether `clock` puts the point's times on the reference's without confusing offset and delay.
bool timesComparable(const PointClock& clock) { return clock.reference || (clock.linked && clock.separable); }

// Whether `a` is a better vantage point than `b` for a connection whose data `sender` (a direction)
// sent most: more segments (a point that missed some would show gaps that are not there), then
// sooner to see the sender's first data (nearer the sender), then the higher TTL. A tie is no
// better, so the point given first keeps it.
bool better(const PointView& a, const PointView& b, size_t sender) {
    if (a.segments != b.segments) {
        return a.segments > b.segments;
    }
    if (a.firstDataNs[sender] != b.firstDataNs[sender]) {
        return a.firstDataNs[sender] < b.firstDataNs[sender];  // never seen (kNever) last
    }
    return a.highestTtl > b.highestTtl;
}

}  // namespace

absl::flat_hash_map<FlowKey, uint32_t> chooseVantagePoints(const std::vector<PointSegments>& points,
                                                           const std::vector<PointClock>& clocks) {
    absl::flat_hash_map<FlowKey, std::vector<PointView>> views;
    for (uint32_t p = 0; p < points.size(); ++p) {
        for (const SeenSegment& seen : points[p].segments) {
            std::vector<PointView>& perPoint = views[seen.id.flow];
            perPoint.resize(points.size());
            PointView& view = perPoint[p];
            ++view.segments;
            view.highestTtl = std::max(view.highestTtl, seen.ttl);
            if (seen.id.payloadLength > 0) {
                const size_t direction = seen.id.sourceIsLow ? 1 : 0;
                view.payloadBytes[direction] += seen.id.payloadLength;
                if (view.firstDataNs[direction] == kNever && p < clocks.size() && timesComparable(clocks[p])) {
                    view.firstDataNs[direction] = clocks[p].toReferenceNs(seen.tsNs);
                }
            }
        }
    }
    absl::flat_hash_map<FlowKey, uint32_t> chosen;
    chosen.reserve(views.size());
    for (const auto& [flow, perPoint] : views) {
        std::array<uint64_t, 2> bytes{};
        for (const PointView& view : perPoint) {
            bytes[0] = std::max(bytes[0], view.payloadBytes[0]);
            bytes[1] = std::max(bytes[1], view.payloadBytes[1]);
        }
        const size_t sender = bytes[1] >= bytes[0] ? 1 : 0;
        uint32_t best = 0;
        for (uint32_t p = 1; p < perPoint.size(); ++p) {
            if (better(perPoint[p], perPoint[best], sender)) {
                best = p;
            }
        }
        chosen.emplace(flow, best);
    }
    return chosen;
}

}  // namespace tcpscope
