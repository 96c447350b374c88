#include "models/packets_model.hpp"

#include <algorithm>

#include "models/seen_at.hpp"
#include "present/value_format.hpp"
#include "series/connection_packets.hpp"
#include "tcp/analysis_flag_words.hpp"

namespace tcpscope::ui {

QString analysisFlagTitle(AnalysisFlag flag) {
    const std::string_view words = analysisFlagWords(flag);
    return QString::fromUtf8(words.data(), static_cast<qsizetype>(words.size()));
}

QString analysisFlagsText(AnalysisFlags flags) {
    return QString::fromStdString(tcpscope::analysisFlagsText(flags, FlagNaming::Words));
}

PacketsModel::PacketsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PacketsModel::setConnection(ResultsPtr results, uint32_t connection) {
    beginResetModel();
    results_ = std::move(results);
    connection_ = connection;
    positions_.clear();
    scannedTo_ = 0;
    const PacketIndex* packets = results_ ? results_->packets() : nullptr;
    if (packets != nullptr && connection < results_->connections().size()) {
        positions_ = packetPositionsOf(*packets, results_->connections()[connection]);
        scannedTo_ = packets->size();
    }
    endResetModel();
}

void PacketsModel::extendTo(ResultsPtr results) {
    const PacketIndex* packets = results ? results->packets() : nullptr;
    if (packets == nullptr || scannedTo_ == 0 || packets->size() < scannedTo_ ||
        connection_ >= results->connections().size()) {
        setConnection(std::move(results), connection_);
        return;
    }
    std::vector<size_t> added;
    for (size_t position = scannedTo_; position < packets->size(); ++position) {
        if (packets->connection(position) == connection_) {
            added.push_back(position);
        }
    }
    scannedTo_ = packets->size();
    results_ = std::move(results);  // the rows shown so far read the same packets from it
    if (!positions_.empty()) {
        // Analysis flags of earlier packets can change with later ones.
        emit dataChanged(index(0, AnalysisColumn), index(static_cast<int>(positions_.size()) - 1, AnalysisColumn));
    }
    if (added.empty()) {
        return;
    }
    const auto first = static_cast<int>(positions_.size());
    beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
    positions_.insert(positions_.end(), added.begin(), added.end());
    endInsertRows();
}

int PacketsModel::rowOfFrame(uint32_t frame) const {
    const PacketIndex* packets = results_ ? results_->packets() : nullptr;
    if (packets == nullptr) {
        return -1;
    }
    // The rows are in packet index order, so the frame's position finds its row.
    const size_t position = packets->positionOfFrame(frame);
    const auto row = std::lower_bound(positions_.begin(), positions_.end(), position);
    return row != positions_.end() && *row == position ? static_cast<int>(row - positions_.begin()) : -1;
}

int PacketsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(positions_.size());
}

int PacketsModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return results_ && results_->sightings() != nullptr ? ColumnCount + 1 : ColumnCount;
}

QVariant PacketsModel::data(const QModelIndex& index, int role) const {
    const PacketIndex* packets = results_ ? results_->packets() : nullptr;
    if (!index.isValid() || packets == nullptr) {
        return {};
    }
    const size_t position = positions_[static_cast<size_t>(index.row())];
    if (role == PacketIndexRole) {
        return static_cast<qulonglong>(position);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const IndexedPacket packet = packets->at(position);
    const Connection& connection = results_->connections()[packet.connection];
    const RelativeNumbers relative = relativeNumbers(connection, packet);
    switch (index.column()) {
        case FrameColumn: return packet.frame;
        case TimeColumn: return QString::number(static_cast<double>(packet.tsNs - results_->firstTsNs()) / 1e9, 'f', 6);
        case DirectionColumn: return packet.fromServer ? QStringLiteral("\u2190 server") : QStringLiteral("client \u2192");
        case FlagsColumn: return QString::fromStdString(tcpFlagsText(packet.tcpFlags));
        case SeqColumn: return relative.seq;
        case AckColumn: return relative.ack;
        case LengthColumn: return packet.payloadLength;
        case WindowColumn: return packet.window;
        case AnalysisColumn: return analysisFlagsText(packet.analysis);
        case SeenAtColumn: return seenAtText(*results_, packet.frame);
        default: return {};
    }
}

QVariant PacketsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* const names[] = {"Frame", "Time", "Direction", "Flags", "Seq", "Ack", "Len", "Win", "Analysis"};
    if (section == SeenAtColumn) {
        return tr("Seen at");
    }
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace tcpscope::ui
