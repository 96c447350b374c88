#include "points/point_sightings.hpp"

#include <utility>

namespace tcpscope {
namespace {

const IpAddress& sourceAddress(const SegmentIdentity& id) {
    return id.sourceIsLow ? id.flow.low.address : id.flow.high.address;
}

}  // namespace

PointSightings::PointSightings(std::vector<PointSegments> points, std::vector<PointClock> clocks)
    : points_(std::move(points)), clocks_(std::move(clocks)) {
    seen_.resize(points_.size());
    comparable_.resize(points_.size(), false);
    for (uint32_t p = 0; p < points_.size(); ++p) {
        comparable_[p] = p < clocks_.size() && (clocks_[p].reference || (clocks_[p].linked && clocks_[p].separable));
        const std::vector<SeenSegment>& segments = points_[p].segments;
        seen_[p].reserve(segments.size());
        for (uint32_t i = 0; i < segments.size(); ++i) {
            const auto [slot, inserted] = seen_[p].try_emplace(segments[i].id, Seen{i, false});
            if (!inserted) {
                slot->second.twice = true;
            }
        }
    }
    placeHosts();
}

std::optional<int64_t> PointSightings::seenAtNs(uint32_t point, const SegmentIdentity& id) const {
    if (point >= seen_.size() || !comparable_[point]) {
        return std::nullopt;
    }
    const auto found = seen_[point].find(id);
    if (found == seen_[point].end() || found->second.twice) {
        return std::nullopt;
    }
    return clocks_[point].toReferenceNs(points_[point].segments[found->second.index].tsNs);
}

void PointSightings::addFrame(uint32_t point, const std::optional<SegmentIdentity>& id) {
    FrameOrigin origin{point, kNotTcp};
    if (id && point < seen_.size()) {
        if (const auto found = seen_[point].find(*id); found != seen_[point].end()) {
            origin.segment = found->second.index;
        }
    }
    frames_.push_back(origin);
}

std::optional<SegmentIdentity> PointSightings::segmentOfFrame(uint32_t frame) const {
    if (frame == 0 || frame > frames_.size() || frames_[frame - 1].segment == kNotTcp) {
        return std::nullopt;
    }
    const FrameOrigin& origin = frames_[frame - 1];
    return points_[origin.point].segments[origin.segment].id;
}

std::vector<PointSightings::Sighting> PointSightings::sightingsOfFrame(uint32_t frame) const {
    std::vector<Sighting> sightings;
    if (const std::optional<SegmentIdentity> id = segmentOfFrame(frame)) {
        for (uint32_t p = 0; p < points_.size(); ++p) {
            if (const std::optional<int64_t> atNs = seenAtNs(p, *id)) {
                sightings.push_back({p, *atNs});
            }
        }
    }
    return sightings;
}

std::optional<uint32_t> PointSightings::pointOfFrame(uint32_t frame) const {
    if (frame == 0 || frame > frames_.size()) {
        return std::nullopt;
    }
    return frames_[frame - 1].point;
}

std::optional<uint32_t> PointSightings::hostPointOf(const IpAddress& address) const {
    const auto found = hostPoint_.find(address);
    if (found == hostPoint_.end()) {
        return std::nullopt;
    }
    return found->second;
}

void PointSightings::placeHosts() {
    // Per source address, per point: the segments that point saw first of all the points that saw them.
    absl::flat_hash_map<IpAddress, std::vector<uint64_t>> firstSeen;
    for (uint32_t p = 0; p < points_.size(); ++p) {
        if (!comparable_[p]) {
            continue;
        }
        for (const auto& [id, seen] : seen_[p]) {
            if (seen.twice) {
                continue;
            }
            const int64_t atNs = clocks_[p].toReferenceNs(points_[p].segments[seen.index].tsNs);
            bool first = true;
            bool elsewhere = false;
            for (uint32_t q = 0; q < points_.size() && first; ++q) {
                if (q == p) {
                    continue;
                }
                if (const std::optional<int64_t> otherNs = seenAtNs(q, id)) {
                    elsewhere = true;
                    // A tie goes to the point given first.
                    first = atNs < *otherNs || (atNs == *otherNs && p < q);
                }
            }
            if (first && elsewhere) {
                std::vector<uint64_t>& counts = firstSeen[sourceAddress(id)];
                counts.resize(points_.size());
                ++counts[p];
            }
        }
    }
    for (const auto& [address, counts] : firstSeen) {
        uint32_t best = 0;
        for (uint32_t p = 1; p < counts.size(); ++p) {
            if (counts[p] > counts[best]) {
                best = p;
            }
        }
        hostPoint_.emplace(address, best);
    }
    placeHostsByHandshake();
}

void PointSightings::placeHostsByHandshake() {
    // Per connection at one point: when its SYN, SYN-ACK and the handshake's last ACK were seen.
    struct Handshake {
        int64_t synNs = 0;
        int64_t synAckNs = 0;
        bool synFromLow = true;
        bool synAckSeen = false;
        bool done = false;
    };
    constexpr uint16_t kSynAck = tcpflag::kSyn | tcpflag::kAck;
    for (uint32_t p = 0; p < points_.size(); ++p) {
        if (!comparable_[p]) {
            continue;
        }
        absl::flat_hash_map<FlowKey, Handshake> handshakes;
        for (const SeenSegment& seen : points_[p].segments) {
            const SegmentIdentity& id = seen.id;
            const uint16_t handshakeFlags = id.flags & kSynAck;
            if (handshakeFlags == tcpflag::kSyn) {
                handshakes[id.flow] = {seen.tsNs, 0, id.sourceIsLow, false, false};
                continue;
            }
            const auto found = handshakes.find(id.flow);
            if (found == handshakes.end() || found->second.done) {
                continue;
            }
            Handshake& handshake = found->second;
            if (handshakeFlags == kSynAck && id.sourceIsLow != handshake.synFromLow) {
                handshake.synAckNs = seen.tsNs;
                handshake.synAckSeen = true;
            } else if (handshakeFlags == tcpflag::kAck && handshake.synAckSeen && id.sourceIsLow == handshake.synFromLow) {
                handshake.done = true;
                // The round trip from the point to each end: next to one end, that one is a tenth of the other or less.
                const int64_t towardsReceiverNs = handshake.synAckNs - handshake.synNs;
                const int64_t towardsSenderNs = seen.tsNs - handshake.synAckNs;
                const IpAddress& sender = handshake.synFromLow ? id.flow.low.address : id.flow.high.address;
                const IpAddress& receiver = handshake.synFromLow ? id.flow.high.address : id.flow.low.address;
                if (towardsSenderNs * 10 <= towardsReceiverNs) {
                    hostPoint_.try_emplace(sender, p);
                } else if (towardsReceiverNs * 10 <= towardsSenderNs) {
                    hostPoint_.try_emplace(receiver, p);
                }
            }
        }
    }
}

SameHost PointSightings::sameHost() const {
    return [this](const IpAddress& a, const IpAddress& b) {
        const std::optional<uint32_t> point = hostPointOf(a);
        return point && point == hostPointOf(b);
    };
}

}  // namespace tcpscope
