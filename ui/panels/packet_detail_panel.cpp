#include "panels/packet_detail_panel.hpp"

#include <QFontDatabase>
#include <QHeaderView>
#include <algorithm>

#include "dissect/frame_bytes_reader.hpp"
#include "dissect/frame_dissector.hpp"
#include "dissect/hex_dump.hpp"
#include "models/packets_model.hpp"
#include "models/seen_at.hpp"
#include "present/value_format.hpp"

namespace tcpscope::ui {

QString analysisFlagMeaning(AnalysisFlag flag) {
    switch (flag) {
        case AnalysisFlag::Retransmission: return QObject::tr("This frame is a (suspected) retransmission");
        case AnalysisFlag::FastRetransmission:
            return QObject::tr("This frame is a (suspected) fast retransmission, after duplicate ACKs");
        case AnalysisFlag::SpuriousRetransmission:
            return QObject::tr(
                "This frame is a (suspected) spurious retransmission: its data was already acknowledged");
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
    setColumnCount(3);
    setHeaderLabels({tr("Field"), tr("Value"), tr("Wireshark field")});
    // One line per row as Wireshark's tree reads ("Time to Live: 64"), the field name beside it; the
    // value alone stays in its own (hidden) column for copying and tests.
    header()->setSectionResizeMode(LabelColumn, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setColumnHidden(ValueColumn, true);
    setAlternatingRowColors(true);
    highlight_ = new HexHighlightDelegate(this);
    setItemDelegate(highlight_);
    connect(this, &QTreeWidget::currentItemChanged, this,
            [this](const QTreeWidgetItem* current) { highlightBytesOf(current); });
}

PacketDetailPanel::~PacketDetailPanel() = default;

void PacketDetailPanel::clearPacket() {
    clear();
    highlightBytesOf(nullptr);
}

void PacketDetailPanel::highlightBytesOf(const QTreeWidgetItem* item) {
    ByteRange range;
    if (item != nullptr && item->data(LabelColumn, kByteLengthRole).isValid()) {
        range = {item->data(LabelColumn, kByteOffsetRole).toUInt(), item->data(LabelColumn, kByteLengthRole).toUInt()};
    }
    if (range != highlight_->range()) {
        highlight_->setRange(range);
        viewport()->update();
    }
}

QTreeWidgetItem* PacketDetailPanel::itemOfField(const QString& field) const {
    const QList<QTreeWidgetItem*> found = findItems(field, Qt::MatchExactly | Qt::MatchRecursive, FieldColumn);
    return found.isEmpty() ? nullptr : found.front();
}

std::optional<dissect::FrameBytes> PacketDetailPanel::readFrame(const AnalysisResults& results,
                                                                const IndexedPacket& packet, QString& problem) {
    const CaptureAnalysis* capture = results.analysis();
    if (capture == nullptr || packet.fileIndex >= capture->inputs.size()) {
        problem = tr("the bytes are read again from the capture file once the analysis is complete");
        return std::nullopt;
    }
    const std::string& path = capture->inputs[packet.fileIndex].path;
    if (path == "-") {
        problem = tr("the capture came from standard input: its bytes cannot be read again");
        return std::nullopt;
    }
    try {
        if (!reader_ || reader_->path() != path) {
            reader_.reset();
            reader_ = std::make_unique<dissect::FrameBytesReader>(path);
        }
        std::optional<dissect::FrameBytes> frame = reader_->read(packet.recordOffset);
        if (!frame) {
            problem = QString::fromStdString(reader_->problem());
        }
        return frame;
    } catch (const CaptureError& error) {
        problem = QString::fromStdString(error.problem().describe());
        return std::nullopt;
    }
}

namespace {

/// Sets a row's value: its own column, and the line shown, "Label: value" as Wireshark writes it.
void setValue(QTreeWidgetItem* item, const QString& label, const QString& value) {
    item->setText(PacketDetailPanel::ValueColumn, value);
    item->setText(PacketDetailPanel::LabelColumn, value.isEmpty() ? label : label + QStringLiteral(": ") + value);
}

QTreeWidgetItem* addRow(QTreeWidgetItem* parent, const QString& label, const QString& value,
                        const QString& field = QString()) {
    auto* item = new QTreeWidgetItem(parent);
    setValue(item, label, value);
    item->setText(PacketDetailPanel::FieldColumn, field);
    if (!field.isEmpty()) {
        item->setToolTip(PacketDetailPanel::LabelColumn, field);
        item->setForeground(PacketDetailPanel::FieldColumn, QColor(0x60, 0x60, 0x60));
    }
    return item;
}

QTreeWidgetItem* addNode(QTreeWidgetItem* parent, const dissect::DissectionNode& node) {
    QTreeWidgetItem* item = addRow(parent, QString::fromStdString(node.label), QString::fromStdString(node.value),
                                   QString::fromStdString(node.field));
    if (node.length > 0) {
        item->setData(PacketDetailPanel::LabelColumn, PacketDetailPanel::kByteOffsetRole, node.offset);
        item->setData(PacketDetailPanel::LabelColumn, PacketDetailPanel::kByteLengthRole, node.length);
        // Where the field sits in the frame, as Wireshark's status bar says when a row is selected.
        item->setToolTip(PacketDetailPanel::LabelColumn,
                         QObject::tr("%1  (bytes %2\u2013%3 of the frame)")
                             .arg(QString::fromStdString(node.field.empty() ? node.label : node.field))
                             .arg(node.offset)
                             .arg(node.offset + node.length - 1));
    }
    if (node.label == dissect::kPacketSizeLimited) {
        item->setForeground(PacketDetailPanel::LabelColumn, QColor(0xa0, 0x40, 0x00));
    }
    for (const dissect::DissectionNode& child : node.children) {
        addNode(item, child);
    }
    return item;
}

}  // namespace

void PacketDetailPanel::showPacket(const ResultsPtr& results, size_t position) {
    clear();
    highlightBytesOf(nullptr);
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
    QString problem;
    const std::optional<dissect::FrameBytes> bytes = readFrame(*results, packet, problem);
    const std::vector<dissect::DissectionNode> layers =
        bytes ? dissect::dissectFrame(*bytes, dissect::dissectContextOf(connection, packet))
              : std::vector<dissect::DissectionNode>();

    QTreeWidgetItem* frame =
        addRow(invisibleRootItem(), tr("Frame %1").arg(packet.frame), QString(), QStringLiteral("frame"));
    addRow(frame, tr("Arrival time (UTC)"), QString::fromStdString(utcTimestamp(results->timeOrigin(), packet.tsNs)),
           QStringLiteral("frame.time"));
    addRow(frame, tr("Since capture start"),
           tr("%1 s").arg(static_cast<double>(packet.tsNs - results->firstTsNs()) / 1e9, 0, 'f', 6),
           QStringLiteral("frame.time_relative"));
    if (capture != nullptr && packet.fileIndex < capture->inputs.size()) {
        addRow(frame, tr("File"), QString::fromStdString(capture->inputs[packet.fileIndex].path));
    }
    addRow(frame, tr("Record offset"), QString::number(packet.recordOffset));
    if (!layers.empty()) {
        setValue(frame, tr("Frame %1").arg(packet.frame), QString::fromStdString(layers.front().value));
        for (const dissect::DissectionNode& row : layers.front().children) {
            addNode(frame, row);
        }
    } else {
        auto* unread = addRow(frame, tr("Bytes"), tr("not read: %1").arg(problem));
        unread->setForeground(LabelColumn, QColor(0xa0, 0x40, 0x00));
    }

    QTreeWidgetItem* tcp = nullptr;
    for (size_t layer = 1; layer < layers.size(); ++layer) {
        QTreeWidgetItem* item = addNode(invisibleRootItem(), layers[layer]);
        if (layers[layer].field == "tcp") {
            tcp = item;
        }
    }
    const SequenceSummary& senderState = connection.sequence[sideIndex(sender)];
    const int shift = senderState.windowScale >= 0 ? senderState.windowScale : 0;
    const bool scaled = (packet.tcpFlags & tcpflag::kSyn) == 0 && shift > 0;
    if (tcp == nullptr) {
        // No bytes (or no TCP header in them): what the packet index knows.
        const QString src = QString::fromStdString(connection.endpoint(sender).toString());
        const QString dst = QString::fromStdString(connection.endpoint(otherSide(sender)).toString());
        tcp = addRow(invisibleRootItem(), tr("Transmission Control Protocol"), tr("%1 \u2192 %2").arg(src, dst),
                     QStringLiteral("tcp"));
        addRow(tcp, tr("Flags"), QString::fromStdString(tcpFlagsText(packet.tcpFlags)), QStringLiteral("tcp.flags"));
        addRow(tcp, tr("Sequence number"), tr("%1    (raw %2)").arg(relative.seq).arg(packet.seq),
               QStringLiteral("tcp.seq"));
        addRow(tcp, tr("Acknowledgment number"), tr("%1    (raw %2)").arg(relative.ack).arg(packet.ack),
               QStringLiteral("tcp.ack"));
        addRow(tcp, tr("Next sequence number"), QString::number(relative.seq + packet.payloadLength),
               QStringLiteral("tcp.nxtseq"));
        addRow(tcp, tr("Segment length"), QString::number(packet.payloadLength), QStringLiteral("tcp.len"));
        addRow(tcp, tr("Window"), QString::number(packet.window), QStringLiteral("tcp.window_size_value"));
    }
    if (scaled) {
        addRow(tcp, tr("[Calculated window size]"), QString::number(static_cast<qulonglong>(packet.window) << shift),
               QStringLiteral("tcp.window_size"));
        addRow(tcp, tr("[Window size scaling factor]"), QString::number(1 << shift),
               QStringLiteral("tcp.window_size_scalefactor"));
    }
    addRow(tcp, tr("[Stream index]"), QString::number(packet.connection), QStringLiteral("tcp.stream"));
    if (packet.analysis != 0) {
        // Under the TCP header, as Wireshark's [SEQ/ACK analysis].
        auto* analysis = addRow(tcp, tr("SEQ/ACK analysis"), QString(), QStringLiteral("tcp.analysis"));
        for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
            const AnalysisFlag flag = analysisFlagAt(bitIndex);
            if (has(packet.analysis, flag)) {
                addRow(analysis, analysisFlagTitle(flag), analysisFlagMeaning(flag),
                       QStringLiteral("tcp.analysis.%1").arg(QString::fromUtf8(analysisFlagName(flag).data())));
            }
        }
    }
    // Capture points: each point that saw it, on the reference clock, and how long after the first.
    if (const std::vector<NamedSighting> seen = namedSightingsOf(*results, packet.frame); !seen.empty()) {
        QTreeWidgetItem* seenAt = addRow(invisibleRootItem(), tr("Seen at"),
                                         tr("%n capture point(s)", nullptr, static_cast<int>(seen.size())));
        seenAt->setData(0, Qt::UserRole, QStringLiteral("seenAt"));
        const int64_t firstNs = std::min_element(seen.begin(), seen.end(), [](const auto& a, const auto& b) {
                                    return a.tsNs < b.tsNs;
                                })->tsNs;
        for (const NamedSighting& sighting : seen) {
            addRow(seenAt, sighting.point,
                   tr("%1 s  (+%2 ms)")
                       .arg(static_cast<double>(sighting.tsNs - results->firstTsNs()) / 1e9, 0, 'f', 6)
                       .arg(static_cast<double>(sighting.tsNs - firstNs) / 1e6, 0, 'f', 3));
        }
    }
    QTreeWidgetItem* flow = addRow(invisibleRootItem(), tr("Connection #%1").arg(connection.id), QString());
    addRow(flow, tr("Client"), QString::fromStdString(connection.client.toString()));
    addRow(flow, tr("Server"), QString::fromStdString(connection.server.toString()));
    addRow(flow, tr("State"), QString::fromUtf8(connectionStateName(connection.state).data()));
    addRow(flow, tr("Sent by"), QString::fromUtf8(sideName(sender).data()));
    if (const std::string_view comment =
            capture != nullptr ? capture->engine->commentOf(packet.frame) : std::string_view();
        !comment.empty()) {
        addRow(frame, tr("Comment"), QString::fromUtf8(comment.data(), static_cast<qsizetype>(comment.size())),
               QStringLiteral("frame.comment"));
    }
    expandAll();
    if (bytes) {
        // Wireshark's bytes pane, as `tshark -x` prints it; left folded under a long header.
        QTreeWidgetItem* dump = addRow(invisibleRootItem(), tr("Bytes"),
                                       tr("%n byte(s) captured", nullptr, static_cast<int>(bytes->data.size())));
        const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        uint32_t lineOffset = 0;
        for (const std::string& line : dissect::hexDumpLines(bytes->data)) {
            auto* item = new QTreeWidgetItem(dump, {QString::fromStdString(line), QString::fromStdString(line)});
            item->setFont(LabelColumn, fixed);
            item->setData(LabelColumn, HexHighlightDelegate::kLineOffsetRole, lineOffset);
            lineOffset += dissect::kHexDumpBytesPerLine;
        }
        if (bytes->data.size() < bytes->originalLength) {
            addRow(dump, QString(), QString::fromUtf8(dissect::kPacketSizeLimited));
        }
        dump->setExpanded(true);
    }
    // The TCP header is what a reader of this tool looks for: the layers below it fold (a click opens
    // them), and so do the 16 flag bits, so that the options show without scrolling.
    if (tcp != nullptr && !layers.empty()) {
        for (int row = 0; row < topLevelItemCount() && topLevelItem(row) != tcp; ++row) {
            topLevelItem(row)->setExpanded(false);
        }
        if (QTreeWidgetItem* flags = itemOfField(QStringLiteral("tcp.flags")); flags != nullptr) {
            flags->setExpanded(false);
        }
    }
}

}  // namespace tcpscope::ui
