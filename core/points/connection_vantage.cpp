#include "points/connection_vantage.hpp"

#include <tuple>

namespace tcpscope {
namespace {

// What one point saw of one connection.
struct PointView {
    uint64_t segments = 0;
    uint8_t highestTtl = 0;  // of either endpoint: the sender's own host sees the TTL it sent with
};

}  // namespace

absl::flat_hash_map<FlowKey, uint32_t> chooseVantagePoints(const std::vector<PointSegments>& points) {
    absl::flat_hash_map<FlowKey, std::vector<PointView>> views;
    for (uint32_t p = 0; p < points.size(); ++p) {
        for (const SeenSegment& seen : points[p].segments) {
            std::vector<PointView>& perPoint = views[seen.id.flow];
            perPoint.resize(points.size());
            ++perPoint[p].segments;
            perPoint[p].highestTtl = std::max(perPoint[p].highestTtl, seen.ttl);
        }
    }
    absl::flat_hash_map<FlowKey, uint32_t> chosen;
    chosen.reserve(views.size());
    for (const auto& [flow, perPoint] : views) {
        uint32_t best = 0;
        for (uint32_t p = 1; p < perPoint.size(); ++p) {
            // Strictly better only: a tie keeps the point given first.
            if (std::tuple(perPoint[p].segments, perPoint[p].highestTtl) >
                std::tuple(perPoint[best].segments, perPoint[best].highestTtl)) {
                best = p;
            }
        }
        chosen.emplace(flow, best);
    }
    return chosen;
}

}  // namespace tcpscope
