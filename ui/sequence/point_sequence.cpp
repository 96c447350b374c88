#include "sequence/point_sequence.hpp"

#include <QStringList>
#include <optional>

namespace tcpscope::ui {

namespace {

// The endpoint lifeline `lifeline` uses in leg `leg`: a proxy listens with its first endpoint (leg
// 0) and connects from its second (leg 1).
const Endpoint& endpointOf(const SequenceParticipant& participant, uint8_t leg) {
    return participant.endpoints.size() > 1 && leg < participant.endpoints.size() ? participant.endpoints[leg]
                                                                                  : participant.endpoints.front();
}

}  // namespace

SequencePointTimes pointTimesOf(const AnalysisResults& results, const SequenceDiagram& diagram) {
    SequencePointTimes times;
    const PointSightings* sightings = results.sightings();
    const CapturePointsSummary* points = results.points();
    if (sightings == nullptr || points == nullptr || diagram.participants().empty()) {
        return times;
    }
    // The point on each lifeline's host, per leg of the diagram.
    const auto& participants = diagram.participants();
    const size_t legs = diagram.connections().size();
    std::vector<std::vector<std::optional<uint32_t>>> hostPoint(participants.size(),
                                                                std::vector<std::optional<uint32_t>>(legs));
    times.lifelinePoints.resize(participants.size());
    for (size_t lifeline = 0; lifeline < participants.size(); ++lifeline) {
        QStringList names;
        for (size_t leg = 0; leg < legs; ++leg) {
            if (participants[lifeline].endpoints.empty()) {
                continue;
            }
            const Endpoint& endpoint = endpointOf(participants[lifeline], static_cast<uint8_t>(leg));
            hostPoint[lifeline][leg] = sightings->hostPointOf(endpoint.address);
            if (hostPoint[lifeline][leg] && *hostPoint[lifeline][leg] < points->points.size()) {
                const QString name = QString::fromStdString(points->points[*hostPoint[lifeline][leg]].point.name);
                if (!names.contains(name)) {
                    names << name;
                }
            }
        }
        times.lifelinePoints[lifeline] = names.join(QStringLiteral(" / "));
    }
    const auto& arrows = diagram.arrows();
    times.arrows.resize(arrows.size());
    for (size_t i = 0; i < arrows.size(); ++i) {
        const SequenceArrow& arrow = arrows[i];
        const std::optional<SegmentIdentity> id = sightings->segmentOfFrame(arrow.frame);
        if (!id || arrow.leg >= legs) {
            continue;
        }
        if (const auto& sender = hostPoint[arrow.from][arrow.leg]) {
            times.arrows[i].sentNs = sightings->seenAtNs(*sender, *id).value_or(SequencePointTimes::kUnseen);
        }
        if (const auto& receiver = hostPoint[arrow.to][arrow.leg]) {
            times.arrows[i].receivedNs = sightings->seenAtNs(*receiver, *id).value_or(SequencePointTimes::kUnseen);
        }
    }
    return times;
}

}  // namespace tcpscope::ui
