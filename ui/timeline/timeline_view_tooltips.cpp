// TimelineView: what the tooltip says of the packets, stall, lane, group or capture-wide row under
// the pointer.
#include <QStringList>

#include "finding/wording.hpp"
#include "models/packets_model.hpp"
#include "report/finding_summary.hpp"
#include "timeline/timeline_population.hpp"
#include "timeline/timeline_view.hpp"

namespace tcpscope::ui {

namespace {

QString fromUtf8(const std::string& text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString tcpFlagsText(uint8_t flags) {
    static const char* const kNames[] = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR"};
    QStringList names;
    for (int bitIndex = 0; bitIndex < 8; ++bitIndex) {
        if ((flags & (1u << bitIndex)) != 0) {
            names << QString::fromLatin1(kNames[bitIndex]);
        }
    }
    return names.join(QLatin1Char(' '));
}

}  // namespace

QString TimelineView::tooltipFor(const TimelineHit& hit) const {
    if (!results_) {
        return {};
    }
    const int64_t start = model_->captureRange().startNs;
    const auto at = [start](int64_t tsNs) {
        return QStringLiteral("%1 s (%2 UTC)")
            .arg(fromUtf8(formatRelative(tsNs - start, 1000)), fromUtf8(formatClockUtc(tsNs, 1000)));
    };
    switch (hit.kind) {
        case HitKind::Packets: {
            const CaptureAnalysis* analysis = results_->analysis();
            if (analysis == nullptr || hit.item >= analysis->engine->packets().size()) {
                return {};
            }
            const IndexedPacket packet = analysis->engine->packets().at(hit.item);
            if (hit.count > 1) {
                return tr("%1 packets from %2\nto %3\nDouble-click to zoom in")
                    .arg(hit.count)
                    .arg(at(hit.startNs), at(hit.endNs));
            }
            QString text = tr("Frame %1, %2, %3 bytes, %4\nat %5")
                               .arg(packet.frame)
                               .arg(packet.fromServer ? tr("server → client") : tr("client → server"))
                               .arg(packet.payloadLength)
                               .arg(tcpFlagsText(packet.tcpFlags), at(packet.tsNs));
            if (packet.analysis != 0) {
                text += QLatin1Char('\n') + analysisFlagsText(packet.analysis);
            }
            return text;
        }
        case HitKind::Stall: {
            for (const Finding& finding : results_->findings()) {
                if (finding.id != hit.finding) {
                    continue;
                }
                const QString cause = fromUtf8(std::string(stallGroupTitle(kindInfo(finding.kind).stallGroup)));
                QString text;
                if (hit.count > 1) {
                    text = tr("%1 stalls (%2) folded here; double-click to zoom in\n").arg(hit.count).arg(cause);
                } else if (hit.endNs > hit.startNs) {
                    text = tr("%1 %2, from %3\n")
                               .arg(cause, fromUtf8(formatDuration(hit.endNs - hit.startNs)), at(hit.startNs));
                }
                return text + fromUtf8(findingSummary(finding, results_->enrichments().of(finding.id)));
            }
            return {};
        }
        case HitKind::Lane: {
            if (hit.rowKind == RowKind::GroupHeader && hit.rowIndex < model_->groups().size()) {
                const LaneGroup& group = model_->groups()[hit.rowIndex];
                const auto peak = [&group](PopulationState state) { return group.peaks[static_cast<size_t>(state)]; };
                return tr("%1: %2\nAt most at once: %3 waiting on a SYN, %4 open, %5 stalled, %6 in TIME_WAIT\n"
                          "Strips, top to bottom: waiting on a SYN, open, stalled, TIME_WAIT; darker: more of them\n"
                          "Click or press Enter to %7 its lanes")
                    .arg(fromUtf8(model_->groupLabel(hit.rowIndex)),
                         fromUtf8(plural(group.members, "connection", "connections")))
                    .arg(peak(PopulationState::SynWait))
                    .arg(peak(PopulationState::Open))
                    .arg(peak(PopulationState::Stalled))
                    .arg(peak(PopulationState::TimeWait))
                    .arg(model_->groupCollapsed(hit.rowIndex) ? tr("show") : tr("hide"));
            }
            if (hit.rowKind == RowKind::Population) {
                return tr("Capture-wide: %1").arg(populationRowTooltip(PopulationRowKey::of(hit.rowIndex)));
            }
            const ConnectionLane* lane = model_->connection(hit.connection);
            if (lane == nullptr) {
                return {};
            }
            return tr("Connection #%1: %2 → %3, %4\n%5 packets, from %6\nto %7")
                .arg(lane->connection)
                .arg(fromUtf8(lane->clientText()), fromUtf8(lane->serverText()),
                     fromUtf8(std::string(connectionStateName(lane->state))))
                .arg(model_->packets(lane->connection, false).size() + model_->packets(lane->connection, true).size())
                .arg(at(lane->content.firstTsNs), at(lane->content.lastTsNs));
        }
        case HitKind::Events: {
            if (hit.rowIndex >= model_->extraLanes().size()) {
                return {};
            }
            const TimelineLane& lane = model_->extraLanes()[hit.rowIndex].lane;
            if (hit.count > 1 || hit.item >= lane.events.size()) {
                return tr("%1 events of %2").arg(hit.count).arg(fromUtf8(lane.label));
            }
            const TimelineEvent& event = lane.events[hit.item];
            return tr("%1\nat %2, %3")
                .arg(fromUtf8(event.label), at(event.tsNs), fromUtf8(formatDuration(event.durationNs)));
        }
        default: return {};
    }
}

QString TimelineView::populationRowTooltip(PopulationRowKey row) const {
    const PopulationRowLabel label = populationRowLabel(*model_, row);
    QString text = fromUtf8(label.title) + QLatin1Char('\n') + fromUtf8(label.detail);
    switch (row.row) {
        case PopulationRow::ConnectionRate:
            text += tr("\nFirst SYNs per second (grey) and retransmitted SYNs (red), in bins that follow the zoom");
            break;
        case PopulationRow::TimeWait:
        case PopulationRow::PortsInUse:
            text += tr("\nAs the detectors counted them (the Charts tab shows the same series); the dashed line is "
                       "the limit they are judged against");
            break;
        case PopulationRow::SynWaits:
            text += tr("\nConnections whose first SYN is not answered yet: a full listen backlog keeps them waiting");
            break;
    }
    return text;
}

}  // namespace tcpscope::ui
