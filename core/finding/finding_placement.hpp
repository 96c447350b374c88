#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tcpscope {

/// What one part of a stall was, as capture points at several places of the path show it.
enum class WaitPartKind : uint8_t {
    InFlight,              ///< a segment travelling from one point to another (a hop)
    DelayedAck,            ///< the receiver holding its ACK of the small segment (its delayed-ACK timer)
    ReleasedAfterAck,      ///< the sender's kernel sending the held segment once the ACK had come in
    OutOfSight,            ///< where no point looked: beyond the last point and back, or a segment a point missed
    RetransmissionTimer,   ///< the sender waiting for its retransmission timer
    WaitingOnApplication,  ///< the receiver's application not reading: its window stayed closed
};

/// "in_flight", "delayed_ack", "released_after_ack", "out_of_sight", "retransmission_timer",
/// "waiting_on_application".
constexpr std::string_view waitPartKindName(WaitPartKind kind) {
    switch (kind) {
        case WaitPartKind::InFlight: return "in_flight";
        case WaitPartKind::DelayedAck: return "delayed_ack";
        case WaitPartKind::ReleasedAfterAck: return "released_after_ack";
        case WaitPartKind::OutOfSight: return "out_of_sight";
        case WaitPartKind::RetransmissionTimer: return "retransmission_timer";
        case WaitPartKind::WaitingOnApplication: return "waiting_on_application";
    }
    return "out_of_sight";
}

/// One part of a stall: where (a host, `from` == `to`, or the way from one point to another) and how long.
/// Hosts and points are named by their capture point.
struct WaitPart {
    WaitPartKind kind = WaitPartKind::OutOfSight;
    std::string from;
    std::string to;
    double ms = 0;
};

/// Two capture points next to each other on a segment's way.
struct PointHop {
    std::string from;
    std::string to;
};

/// One stall (a FindingSpan) broken into parts along the path, in time order. The parts add up to
/// the stall where every point on the way saw its segments (a delayed-ACK stall); a zero window
/// gives only the receiver's part, a retransmission its timer and where the data was lost.
struct SpanPlacement {
    std::vector<WaitPart> parts;
    /// retransmission_stall: the last point that saw the transmission that went unanswered and the
    /// next point on its way that never saw it.
    std::optional<PointHop> lostBetween;
    /// retransmission_stall: that transmission reached the receiver's point: it was not lost on the
    /// way there (its ACK was, or came too late).
    bool reachedReceiver = false;
};

/// Where the time of a finding's stalls went, from several capture points (FindingEnrichment::placement).
struct FindingPlacement {
    std::string waitedAt;              ///< the capture point on the host whose data waited; "" if none is
    std::vector<SpanPlacement> spans;  ///< one per listed span (Finding::spans), in the same order
};

/// One kind of part over all the spans of a finding: the same kind at the same place.
struct PlacedPartTotal {
    WaitPartKind kind = WaitPartKind::OutOfSight;
    std::string from;
    std::string to;
    uint32_t spans = 0;  ///< spans that had this part
    double medianMs = 0;
    double totalMs = 0;
};

/// Where the losses of a finding's spans were: a hop and how many.
struct LostBetweenTotal {
    PointHop hop;
    uint32_t spans = 0;
};

/// The parts of all the spans of `placement` added up by kind and place, the most time first.
std::vector<PlacedPartTotal> placedPartTotals(const FindingPlacement& placement);
/// The hops the spans' data was lost on, the most spans first (retransmission_stall).
std::vector<LostBetweenTotal> lostBetweenTotals(const FindingPlacement& placement);

}  // namespace tcpscope
