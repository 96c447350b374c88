#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "decode/ip_address.hpp"
#include "points/point_clocks.hpp"
#include "points/point_segments.hpp"
#include "tcp/proxy_pair.hpp"

namespace tcpscope {

/// Where and when the capture points saw each segment, on the reference clock, and which frame of
/// the merged analysis came from which point's segment: what places a stall along the path
/// (hop_attribution) and what the packets listing shows per packet. Only points whose times can be
/// put on the reference clock without confusing offset and delay (the reference, or linked through
/// links that saw both directions) are asked; the others answer nothing.
class PointSightings {
public:
    /// Takes the points' segments; `clocks` as chainPointClocks gave them, one per point.
    PointSightings(std::vector<PointSegments> points, std::vector<PointClock> clocks);

    [[nodiscard]] uint32_t pointCount() const { return static_cast<uint32_t>(points_.size()); }

    /// When `point` saw the segment `id`, on the reference clock; nullopt if it did not, saw it
    /// twice (which copy went where is unknown), or its clock is not comparable.
    [[nodiscard]] std::optional<int64_t> seenAtNs(uint32_t point, const SegmentIdentity& id) const;

    /// Records that the merged analysis' next frame (frames are numbered 1, 2, ... in push order)
    /// came from `point` and is the segment `id`, or no TCP segment (nullopt).
    void addFrame(uint32_t point, const std::optional<SegmentIdentity>& id);
    /// The segment of frame `frame` of the merged analysis; nullopt for a frame that is no TCP segment.
    [[nodiscard]] std::optional<SegmentIdentity> segmentOfFrame(uint32_t frame) const;
    /// One point's sighting of a segment.
    struct Sighting {
        uint32_t point = 0;
        int64_t tsNs = 0;  ///< on the reference clock
    };
    /// Every point that saw the segment of frame `frame` of the merged analysis, in the order of
    /// the points (seenAtNs of each); empty for a frame that is no TCP segment.
    [[nodiscard]] std::vector<Sighting> sightingsOfFrame(uint32_t frame) const;
    /// The point frame `frame` of the merged analysis came from.
    [[nodiscard]] std::optional<uint32_t> pointOfFrame(uint32_t frame) const;

    /// The point on the host of `address`: the one that saw most of that address's segments first
    /// (before every other point that saw them, on the reference clock). A point on the sending host
    /// sees a segment before it travels anywhere; TTLs cannot tell (on a host's own loopback or
    /// veth every TTL is the initial one). An address no two comparable points saw segments of: the
    /// point whose view of one of its handshakes puts it next to it (the round trip from the point
    /// to that end a tenth of the round trip to the other end, or less). Otherwise nullopt.
    [[nodiscard]] std::optional<uint32_t> hostPointOf(const IpAddress& address) const;
    /// Two addresses are one host when the same point is on both (a proxy that listens on one address
    /// and connects onward from another). The function refers to these sightings: keep them alive.
    [[nodiscard]] SameHost sameHost() const;

private:
    static constexpr uint32_t kNotTcp = UINT32_MAX;
    struct Seen {
        uint32_t index = 0;  ///< the first segment with this identity in its point's segments
        bool twice = false;
    };
    // Per frame of the merged analysis (frame - 1): its point and segment index, or kNotTcp.
    struct FrameOrigin {
        uint32_t point = 0;
        uint32_t segment = kNotTcp;
    };

    void placeHosts();
    void placeHostsByHandshake();

    std::vector<PointSegments> points_;
    std::vector<PointClock> clocks_;
    std::vector<bool> comparable_;
    std::vector<absl::flat_hash_map<SegmentIdentity, Seen>> seen_;  // per point
    std::vector<FrameOrigin> frames_;
    absl::flat_hash_map<IpAddress, uint32_t> hostPoint_;
};

}  // namespace tcpscope
