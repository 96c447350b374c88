#include "points/segment_matching.hpp"

#include <absl/container/flat_hash_map.h>

namespace tcpscope {
namespace {

constexpr size_t kSeenTwice = SIZE_MAX;

// Identity -> index of the one segment with it, or kSeenTwice.
absl::flat_hash_map<SegmentIdentity, size_t> uniqueSegments(const PointSegments& point) {
    absl::flat_hash_map<SegmentIdentity, size_t> unique;
    unique.reserve(point.segments.size());
    for (size_t i = 0; i < point.segments.size(); ++i) {
        const auto [slot, inserted] = unique.try_emplace(point.segments[i].id, i);
        if (!inserted) {
            slot->second = kSeenTwice;
        }
    }
    return unique;
}

}  // namespace

std::vector<SegmentPair> matchSegments(const PointSegments& first, const PointSegments& second) {
    const absl::flat_hash_map<SegmentIdentity, size_t> secondUnique = uniqueSegments(second);
    const absl::flat_hash_map<SegmentIdentity, size_t> firstUnique = uniqueSegments(first);
    std::vector<SegmentPair> pairs;
    for (const SeenSegment& seen : first.segments) {
        const auto inSecond = secondUnique.find(seen.id);
        if (inSecond == secondUnique.end() || inSecond->second == kSeenTwice || firstUnique.at(seen.id) == kSeenTwice) {
            continue;
        }
        pairs.push_back({seen.tsNs, second.segments[inSecond->second].tsNs, seen.id});
    }
    return pairs;
}

}  // namespace tcpscope
