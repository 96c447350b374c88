#include "points/hop_attribution.hpp"

#include <algorithm>
#include <optional>

#include "finding/kind_info.hpp"

namespace tcpscope {
namespace {

const IpAddress& sourceAddress(const SegmentIdentity& id) {
    return id.sourceIsLow ? id.flow.low.address : id.flow.high.address;
}

// What the placement of one finding reads.
struct Places {
    const PointSightings& sightings;
    const std::vector<std::string>& names;

    [[nodiscard]] std::string name(std::optional<uint32_t> point) const {
        return point && *point < names.size() ? names[*point] : std::string();
    }
    [[nodiscard]] std::optional<uint32_t> hostOf(const SegmentIdentity& id) const {
        return sightings.hostPointOf(sourceAddress(id));
    }
};

// One segment of a stall at one point, on the reference clock.
struct Waypoint {
    int segment = 0;  // which of the stall's segments, in the order they were sent
    uint32_t point = 0;
    int64_t tsNs = 0;
};

// The parts between consecutive waypoints: a segment moving between points is in flight; the time
// at one point between two segments is named by `atPoint` (the host's own doing, or out of sight).
template <typename NameAtPoint>
std::vector<WaitPart> partsBetween(const std::vector<Waypoint>& way, const Places& places, const NameAtPoint& atPoint) {
    std::vector<WaitPart> parts;
    for (size_t i = 1; i < way.size(); ++i) {
        const Waypoint& a = way[i - 1];
        const Waypoint& b = way[i];
        WaitPart part;
        part.from = places.name(a.point);
        part.to = places.name(b.point);
        part.ms = static_cast<double>(b.tsNs - a.tsNs) / 1e6;
        if (a.segment == b.segment) {
            part.kind = WaitPartKind::InFlight;
        } else if (a.point == b.point) {
            part.kind = atPoint(a.segment, a.point);
        } else {
            part.kind = WaitPartKind::OutOfSight;  // a point missed one of the two segments
        }
        parts.push_back(std::move(part));
    }
    return parts;
}

// Appends `point`'s sighting of `id` as segment `segment`, unless unknown or the last one already.
void addWaypoint(std::vector<Waypoint>& way, const Places& places, int segment, const SegmentIdentity& id,
                 std::optional<uint32_t> point) {
    if (!point || (!way.empty() && way.back().segment == segment && way.back().point == *point)) {
        return;
    }
    if (const std::optional<int64_t> atNs = places.sightings.seenAtNs(*point, id)) {
        way.push_back({segment, *point, *atNs});
    }
}

// The segment of the frame in `role` of `span`, if the span has one and a point saw it.
std::optional<SegmentIdentity> segmentIn(const FindingSpan& span, FrameRole role, const Places& places) {
    const std::optional<uint32_t> frame = span.frames.of(role);
    return frame ? places.sightings.segmentOfFrame(*frame) : std::nullopt;
}

std::optional<SpanPlacement> placeDelayedAck(const FindingSpan& span, const Places& places) {
    const std::optional<uint32_t> smallFrame = span.frames.of(FrameRole::SmallSegment);
    if (!smallFrame) {
        return std::nullopt;
    }
    const std::optional<SegmentIdentity> small = places.sightings.segmentOfFrame(*smallFrame);
    const std::optional<SegmentIdentity> ack = segmentIn(span, FrameRole::LateAck, places);
    const std::optional<SegmentIdentity> held = segmentIn(span, FrameRole::HeldSegment, places);
    const std::optional<uint32_t> vantage = places.sightings.pointOfFrame(*smallFrame);
    if (!small || !ack || !held || !vantage) {
        return std::nullopt;
    }
    const std::optional<uint32_t> senderPoint = places.hostOf(*small);
    const std::optional<uint32_t> receiverPoint = places.hostOf(*ack);
    // The stall as the analysis timed it, at the vantage point, at both ends (the vantage point's
    // own sightings may be left out: a segment it holds twice).
    std::vector<Waypoint> way{{0, *vantage, span.startNs}};
    addWaypoint(way, places, 0, *small, receiverPoint);
    addWaypoint(way, places, 1, *ack, receiverPoint);
    addWaypoint(way, places, 1, *ack, senderPoint);
    addWaypoint(way, places, 2, *held, senderPoint);
    if (way.back().segment != 2 || way.back().point != *vantage) {
        way.push_back({2, *vantage, span.endNs});
    }
    SpanPlacement placement;
    placement.parts = partsBetween(way, places, [&](int segment, uint32_t point) {
        if (segment == 0 && point == receiverPoint) {
            return WaitPartKind::DelayedAck;
        }
        if (segment == 1 && point == senderPoint) {
            return WaitPartKind::ReleasedAfterAck;
        }
        return WaitPartKind::OutOfSight;  // the way to the far host and back, where no point was
    });
    return placement;
}

// Whether `later` resends bytes of `earlier` (same direction and connection).
bool resends(const SegmentIdentity& earlier, const SegmentIdentity& later) {
    return earlier.flow == later.flow && earlier.sourceIsLow == later.sourceIsLow && earlier.payloadLength > 0 &&
           later.seq - earlier.seq < earlier.payloadLength;
}

std::optional<SpanPlacement> placeRetransmission(const FindingSpan& span, const Places& places) {
    const std::optional<SegmentIdentity> original = segmentIn(span, FrameRole::LastTransmission, places);
    const std::optional<SegmentIdentity> resent = segmentIn(span, FrameRole::Retransmission, places);
    if (!original || !resent) {
        return std::nullopt;
    }
    const std::optional<uint32_t> senderPoint = places.hostOf(*original);
    SpanPlacement placement;
    WaitPart timer{WaitPartKind::RetransmissionTimer, places.name(senderPoint), places.name(senderPoint),
                   static_cast<double>(span.endNs - span.startNs) / 1e6};
    placement.parts.push_back(std::move(timer));
    if (!resends(*original, *resent)) {
        return placement;  // the data's last transmission was not captured: a later segment stands for it
    }
    // The points in the order the retransmission passed them: the data's way from the sender.
    std::vector<std::pair<int64_t, uint32_t>> onTheWay;
    for (uint32_t p = 0; p < places.sightings.pointCount(); ++p) {
        if (const std::optional<int64_t> atNs = places.sightings.seenAtNs(p, *resent)) {
            onTheWay.emplace_back(*atNs, p);
        }
    }
    std::sort(onTheWay.begin(), onTheWay.end());
    std::optional<uint32_t> lastSeen;
    for (const auto& [atNs, point] : onTheWay) {
        if (places.sightings.seenAtNs(point, *original)) {
            lastSeen = point;
            continue;
        }
        if (lastSeen) {
            placement.lostBetween = PointHop{places.name(lastSeen), places.name(point)};
        }
        return placement;
    }
    const std::optional<uint32_t> receiverPoint =
        places.sightings.hostPointOf(original->sourceIsLow ? original->flow.high.address : original->flow.low.address);
    placement.reachedReceiver = lastSeen && lastSeen == receiverPoint;
    return placement;
}

std::optional<SpanPlacement> placeZeroWindow(const FindingSpan& span, const Places& places) {
    const std::optional<SegmentIdentity> closed = segmentIn(span, FrameRole::WindowClosed, places);
    const std::optional<SegmentIdentity> reopened = segmentIn(span, FrameRole::WindowEnd, places);
    if (!closed || !reopened || reopened->sourceIsLow != closed->sourceIsLow) {
        return std::nullopt;  // the capture ended first, or the last frame is not the receiver's
    }
    const std::optional<uint32_t> receiverPoint = places.hostOf(*closed);
    if (!receiverPoint) {
        return std::nullopt;
    }
    const std::optional<int64_t> closedNs = places.sightings.seenAtNs(*receiverPoint, *closed);
    const std::optional<int64_t> reopenedNs = places.sightings.seenAtNs(*receiverPoint, *reopened);
    if (!closedNs || !reopenedNs) {
        return std::nullopt;
    }
    SpanPlacement placement;
    placement.parts.push_back({WaitPartKind::WaitingOnApplication, places.name(receiverPoint),
                               places.name(receiverPoint), static_cast<double>(*reopenedNs - *closedNs) / 1e6});
    return placement;
}

std::optional<SpanPlacement> placeSpan(HopPlacement hops, const FindingSpan& span, const Places& places) {
    switch (hops) {
        case HopPlacement::DelayedAck: return placeDelayedAck(span, places);
        case HopPlacement::Retransmission: return placeRetransmission(span, places);
        case HopPlacement::ReceiverWindow: return placeZeroWindow(span, places);
        case HopPlacement::None: break;
    }
    return std::nullopt;
}

}  // namespace

void placeFindingSpans(CaptureAnalysis& analysis, const PointSightings& sightings,
                       const std::vector<std::string>& pointNames) {
    const Places places{sightings, pointNames};
    for (size_t i = 0; i < analysis.findings.size(); ++i) {
        const HopPlacement hops = kindInfo(analysis.findings[i].kind).hops;
        if (hops == HopPlacement::None) {
            continue;
        }
        Finding described;
        const Finding& finding = analysis.completeFindingButEvidence(i, described);
        if (finding.spans.empty()) {
            continue;
        }
        FindingPlacement placement;
        if (const std::optional<SegmentIdentity> first = sightings.segmentOfFrame(finding.spans.front().frames.front())) {
            // The waiting side sent the span's first segment, except for a window closed by the receiver.
            const bool receiverFirst = hops == HopPlacement::ReceiverWindow;
            const IpAddress& waiting =
                receiverFirst == first->sourceIsLow ? first->flow.high.address : first->flow.low.address;
            placement.waitedAt = places.name(sightings.hostPointOf(waiting));
        }
        placement.spans.reserve(finding.spans.size());
        for (const FindingSpan& span : finding.spans) {
            placement.spans.push_back(placeSpan(hops, span, places).value_or(SpanPlacement{}));
        }
        analysis.enrichments.edit(analysis.findings[i].id).placement = std::move(placement);
    }
}

}  // namespace tcpscope
