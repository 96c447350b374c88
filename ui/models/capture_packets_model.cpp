#include "models/capture_packets_model.hpp"

#include <algorithm>

#include "models/packets_model.hpp"
#include "present/value_format.hpp"

namespace tcpscope::ui {

CapturePacketsModel::CapturePacketsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CapturePacketsModel::setResults(ResultsPtr results) {
    beginResetModel();
    results_ = std::move(results);
    const PacketIndex* packets = results_ ? results_->packets() : nullptr;
    all_ = packets != nullptr ? packets->size() : 0;
    matches_.reset();
    endResetModel();
}

void CapturePacketsModel::setMatches(std::optional<std::vector<size_t>> positions) {
    beginResetModel();
    matches_ = std::move(positions);
    endResetModel();
}

size_t CapturePacketsModel::positionOfRow(int row) const {
    const auto at = static_cast<size_t>(row);
    return matches_ ? (*matches_)[at] : at;
}

int CapturePacketsModel::rowOfPosition(size_t position) const {
    if (!matches_) {
        return position < all_ ? static_cast<int>(position) : -1;
    }
    const auto found = std::lower_bound(matches_->begin(), matches_->end(), position);
    return found != matches_->end() && *found == position ? static_cast<int>(found - matches_->begin()) : -1;
}

std::vector<uint32_t> CapturePacketsModel::shownFrames() const {
    const PacketIndex* packets = results_ ? results_->packets() : nullptr;
    std::vector<uint32_t> frames;
    if (packets == nullptr) {
        return frames;
    }
    const int rows = rowCount();
    frames.reserve(static_cast<size_t>(rows));
    for (int row = 0; row < rows; ++row) {
        frames.push_back(packets->frame(positionOfRow(row)));
    }
    return frames;
}

int CapturePacketsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid()) {
        return 0;
    }
    return static_cast<int>(matches_ ? matches_->size() : all_);
}

int CapturePacketsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CapturePacketsModel::data(const QModelIndex& index, int role) const {
    const PacketIndex* packets = results_ ? results_->packets() : nullptr;
    if (!index.isValid() || packets == nullptr || index.row() >= rowCount()) {
        return {};
    }
    const size_t position = positionOfRow(index.row());
    if (role == PacketIndexRole) {
        return static_cast<qulonglong>(position);
    }
    if (role == Qt::TextAlignmentRole) {
        const bool text = index.column() == SourceColumn || index.column() == DestinationColumn ||
                          index.column() == FlagsColumn || index.column() == AnalysisColumn;
        return QVariant::fromValue(Qt::AlignVCenter | (text ? Qt::AlignLeft : Qt::AlignRight));
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    const IndexedPacket packet = packets->at(position);
    const Connection& connection = results_->connections()[packet.connection];
    const Endpoint& source = packet.fromServer ? connection.server : connection.client;
    const Endpoint& destination = packet.fromServer ? connection.client : connection.server;
    switch (index.column()) {
        case FrameColumn: return packet.frame;
        case TimeColumn: return QString::number(static_cast<double>(packet.tsNs - results_->firstTsNs()) / 1e9, 'f', 6);
        case DeltaColumn: {
            const int64_t previous = index.row() > 0 ? packets->tsNs(positionOfRow(index.row() - 1)) : packet.tsNs;
            return QString::number(static_cast<double>(packet.tsNs - previous) / 1e9, 'f', 6);
        }
        case SourceColumn: return QString::fromStdString(source.toString());
        case DestinationColumn: return QString::fromStdString(destination.toString());
        case StreamColumn: return packet.connection;
        case FlagsColumn: return QString::fromStdString(tcpFlagsText(packet.tcpFlags));
        case SeqColumn: return relativeNumbers(connection, packet).seq;
        case AckColumn: return relativeNumbers(connection, packet).ack;
        case LengthColumn: return packet.payloadLength;
        case WindowColumn: return packet.window;
        case AnalysisColumn: return analysisFlagsText(packet.analysis);
        default: return {};
    }
}

QVariant CapturePacketsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    // Wireshark's column names where it has them (its "Stream" is tcp.stream, tcpscope's connection id).
    static const char* const names[] = {"No.", "Time", "Delta", "Source", "Destination", "Stream",
                                        "Flags", "Seq", "Ack", "Len", "Win", "Analysis"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace tcpscope::ui
