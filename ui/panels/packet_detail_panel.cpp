#include "panels/packet_detail_panel.hpp"

#include <QHeaderView>
#include <algorithm>

#include "models/seen_at.hpp"
#include "models/packets_model.hpp"
#include "present/value_format.hpp"

namespace tcpscope::ui {

QString analysisFlagMeaning(AnalysisFlag flag) {
    switch (flag) {
        case AnalysisFlag::Retransmission: return QObject::tr("This frame is a (suspected) retransmission");
        case AnalysisFlag::FastRetransmission:
            return QObject::tr("This frame is a (suspected) fast retransmission, after duplicate ACKs");
        case AnalysisFlag::SpuriousRetransmission:
            return QObject::tr("This frame is a (suspected) spurious retransmission: its data was already acknowledged");
        case AnalysisFlag::OutOfOrder: return QObject::tr("This frame is a (suspected) out-of-order segment");
        case AnalysisFlag::LostSegment: return QObject::tr("Previous segment(s) not captured");
        case AnalysisFlag::AckLostSegment: return QObject::tr("ACKed segment that wasn't captured");
        case AnalysisFlag::DuplicateAck: return QObject::tr("Duplicate ACK");
        case AnalysisFlag::ZeroWindow: return QObject::tr("The receive window is closed (zero window)");
        case AnalysisFlag::ZeroWindowProbe: return QObject::tr("Zero window probe");
        case AnalysisFlag::ZeroWindowProbeAck: return QObject::tr("ACK to a zero window probe");
        case AnalysisFlag::WindowFull: return QObject::tr("The sender filled the receiver's window");
        case AnalysisFlag::WindowUpdate: return QObject::tr("Window update");
        case AnalysisFlag::KeepAlive: return QObject::tr("Keep-alive");
        case AnalysisFlag::KeepAliveAck: return QObject::tr("ACK to a keep-alive");
        case AnalysisFlag::ReusedPorts:
            return QObject::tr("A new connection with the same ports as an earlier one in this capture");
    }
    return {};
}

PacketDetailPanel::PacketDetailPanel(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(2);
    setHeaderLabels({tr("Field"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    setAlternatingRowColors(true);
}

void PacketDetailPanel::clearPacket() { clear(); }

void PacketDetailPanel::showPacket(const ResultsPtr& results, size_t position) {
    clear();
    // A live capture's snapshot has the packets and connections, not yet the inputs and comments.
    const PacketIndex* packets = results ? results->packets() : nullptr;
    if (packets == nullptr || position >= packets->size()) {
        return;
    }
    const CaptureAnalysis* capture = results->analysis();
    const IndexedPacket packet = packets->at(position);
    const Connection& connection = results->connections()[packet.connection];
    const Side sender = packet.fromServer ? Side::Server : Side::Client;
    const RelativeNumbers relative = relativeNumbers(connection, packet);
    auto add = [](QTreeWidgetItem* parent, const QString& field, const QString& value) {
        auto* item = new QTreeWidgetItem(parent, {field, value});
        return item;
    };

    auto* frame = new QTreeWidgetItem(this, {tr("Frame %1").arg(packet.frame), QString()});
    add(frame, tr("Arrival time (UTC)"), QString::fromStdString(utcTimestamp(results->timeOrigin(), packet.tsNs)));
    add(frame, tr("Since capture start"),
        tr("%1 s").arg(static_cast<double>(packet.tsNs - results->firstTsNs()) / 1e9, 0, 'f', 6));
    if (capture != nullptr && packet.fileIndex < capture->inputs.size()) {
        add(frame, tr("File"), QString::fromStdString(capture->inputs[packet.fileIndex].path));
    }
    add(frame, tr("Record offset"), QString::number(packet.recordOffset));

    const QString src = QString::fromStdString(connection.endpoint(sender).toString());
    const QString dst = QString::fromStdString(connection.endpoint(otherSide(sender)).toString());
    auto* tcp = new QTreeWidgetItem(this, {tr("Transmission Control Protocol"), tr("%1 \u2192 %2").arg(src, dst)});
    add(tcp, tr("Flags"), QString::fromStdString(tcpFlagsText(packet.tcpFlags)));
    add(tcp, tr("Sequence number"), tr("%1    (raw %2)").arg(relative.seq).arg(packet.seq));
    add(tcp, tr("Acknowledgment number"), tr("%1    (raw %2)").arg(relative.ack).arg(packet.ack));
    add(tcp, tr("Next sequence number"), QString::number(relative.seq + packet.payloadLength));
    add(tcp, tr("Segment length"), QString::number(packet.payloadLength));
    const SequenceSummary& senderState = connection.sequence[sideIndex(sender)];
    const int shift = senderState.windowScale >= 0 ? senderState.windowScale : 0;
    add(tcp, tr("Window"),
        (packet.tcpFlags & tcpflag::kSyn) != 0 || shift == 0
            ? QString::number(packet.window)
            : tr("%1 (scaled: %2)").arg(packet.window).arg(static_cast<qulonglong>(packet.window) << shift));

    if (packet.analysis != 0) {
        auto* analysis = new QTreeWidgetItem(this, {tr("SEQ/ACK analysis"), QString()});
        for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
            const AnalysisFlag flag = analysisFlagAt(bitIndex);
            if (has(packet.analysis, flag)) {
                add(analysis, analysisFlagTitle(flag), analysisFlagMeaning(flag));
            }
        }
    }
    // Capture points: each point that saw it, on the reference clock, and how long after the first.
    if (const std::vector<NamedSighting> seen = namedSightingsOf(*results, packet.frame); !seen.empty()) {
        auto* seenAt = new QTreeWidgetItem(
            this, {tr("Seen at"), tr("%n capture point(s)", nullptr, static_cast<int>(seen.size()))});
        seenAt->setData(0, Qt::UserRole, QStringLiteral("seenAt"));
        const int64_t firstNs = std::min_element(seen.begin(), seen.end(), [](const auto& a, const auto& b) {
                                    return a.tsNs < b.tsNs;
                                })->tsNs;
        for (const NamedSighting& sighting : seen) {
            add(seenAt, sighting.point,
                tr("%1 s  (+%2 ms)")
                    .arg(static_cast<double>(sighting.tsNs - results->firstTsNs()) / 1e9, 0, 'f', 6)
                    .arg(static_cast<double>(sighting.tsNs - firstNs) / 1e6, 0, 'f', 3));
        }
    }
    auto* flow = new QTreeWidgetItem(this, {tr("Connection #%1").arg(connection.id), QString()});
    add(flow, tr("Client"), QString::fromStdString(connection.client.toString()));
    add(flow, tr("Server"), QString::fromStdString(connection.server.toString()));
    add(flow, tr("State"), QString::fromUtf8(connectionStateName(connection.state).data()));
    add(flow, tr("Sent by"), QString::fromUtf8(sideName(sender).data()));
    if (const std::string_view comment = capture != nullptr ? capture->engine->commentOf(packet.frame) : std::string_view();
        !comment.empty()) {
        add(frame, tr("Comment"), QString::fromUtf8(comment.data(), static_cast<qsizetype>(comment.size())));
    }
    expandAll();
}

}  // namespace tcpscope::ui
