#pragma once
#include <cstdint>
#include <vector>

#include "points/point_segments.hpp"

namespace tcpscope {

/// The same segment seen at two capture points, each time on its own point's clock.
struct SegmentPair {
    int64_t firstPointTsNs = 0;   ///< at the first point of the pair
    int64_t secondPointTsNs = 0;  ///< at the second
    SegmentIdentity id;
};

/// The segments that `first` and `second` both saw, in the first point's time order. A segment
/// whose identity occurs more than once at either point (a capture that holds it twice, a
/// retransmission indistinguishable from its original) is left out: which copy went where is
/// unknown.
std::vector<SegmentPair> matchSegments(const PointSegments& first, const PointSegments& second);

}  // namespace tcpscope
