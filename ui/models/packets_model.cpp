#include "models/packets_model.hpp"

#include <algorithm>

#include "report/report_format.hpp"

namespace tcpscope::ui {

QString analysisFlagsText(AnalysisFlags flags) {
    QStringList names;
    for (int bitIndex = 0; bitIndex < kAnalysisFlagCount; ++bitIndex) {
        const AnalysisFlag flag = analysisFlagAt(bitIndex);
        const bool impliedRetransmission =
            flag == AnalysisFlag::Retransmission &&
            (has(flags, AnalysisFlag::FastRetransmission) || has(flags, AnalysisFlag::SpuriousRetransmission));
        if (has(flags, flag) && !impliedRetransmission) {
            names << QString::fromUtf8(analysisFlagName(flag).data());
        }
    }
    return names.join(QStringLiteral(", "));
}

PacketsModel::PacketsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PacketsModel::setConnection(ResultsPtr results, uint32_t connection) {
    beginResetModel();
    results_ = std::move(results);
    connection_ = connection;
    positions_.clear();
    if (results_ && results_->analysis() != nullptr) {
        const PacketIndex& packets = results_->analysis()->engine->packets();
        for (size_t i = 0; i < packets.size(); ++i) {
            if (packets.connection(i) == connection) {
                positions_.push_back(i);
            }
        }
    }
    endResetModel();
}

int PacketsModel::rowOfFrame(uint32_t frame) const {
    if (!results_ || results_->analysis() == nullptr) {
        return -1;
    }
    // The rows are in packet index order, so the frame's position finds its row.
    const size_t position = results_->analysis()->engine->packets().positionOfFrame(frame);
    const auto row = std::lower_bound(positions_.begin(), positions_.end(), position);
    return row != positions_.end() && *row == position ? static_cast<int>(row - positions_.begin()) : -1;
}

int PacketsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(positions_.size());
}

int PacketsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PacketsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !results_ || results_->analysis() == nullptr) {
        return {};
    }
    const size_t position = positions_[static_cast<size_t>(index.row())];
    if (role == PacketIndexRole) {
        return static_cast<qulonglong>(position);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const AnalysisEngine& engine = *results_->analysis()->engine;
    const IndexedPacket packet = engine.packets().at(position);
    const Connection& connection = engine.connections()[packet.connection];
    const RelativeNumbers relative = relativeNumbers(connection, packet);
    switch (index.column()) {
        case FrameColumn: return packet.frame;
        case TimeColumn: return QString::number(static_cast<double>(packet.tsNs - engine.firstTsNs()) / 1e9, 'f', 6);
        case DirectionColumn: return packet.fromServer ? QStringLiteral("\u2190 server") : QStringLiteral("client \u2192");
        case FlagsColumn: return QString::fromStdString(tcpFlagsText(packet.tcpFlags));
        case SeqColumn: return relative.seq;
        case AckColumn: return relative.ack;
        case LengthColumn: return packet.payloadLength;
        case WindowColumn: return packet.window;
        case AnalysisColumn: return analysisFlagsText(packet.analysis);
        default: return {};
    }
}

QVariant PacketsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* const names[] = {"Frame", "Time", "Direction", "Flags", "Seq", "Ack", "Len", "Win", "Analysis"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace tcpscope::ui
