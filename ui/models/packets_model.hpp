#pragma once
#include <QAbstractTableModel>

#include <cstdint>
#include <vector>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// The TCP packets of one connection, as Wireshark lists them: frame, time, direction, flags,
/// relative seq/ack, length, window and analysis flags; with several capture points, where and when
/// each was seen.
class PacketsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        FrameColumn,
        TimeColumn,
        DirectionColumn,
        FlagsColumn,
        SeqColumn,
        AckColumn,
        LengthColumn,
        WindowColumn,
        AnalysisColumn,
        ColumnCount,
        /// With several capture points only: which points saw the packet and when (seenAtText).
        SeenAtColumn = ColumnCount
    };
    /// Role giving the position of the row's packet in the packet index.
    static constexpr int PacketIndexRole = Qt::UserRole + 1;

    explicit PacketsModel(QObject* parent = nullptr);
    /// Shows the packets of `connection` (none while the results have no packet index).
    void setConnection(ResultsPtr results, uint32_t connection);
    /// Takes newer results of the same live capture (its packet index grew): the connection's new
    /// packets are inserted as rows after the others, so the selection and the scroll stay. Reads
    /// only the packets added since the last results.
    void extendTo(ResultsPtr results);
    /// The row of the packet with frame number `frame`, or -1.
    [[nodiscard]] int rowOfFrame(uint32_t frame) const;
    [[nodiscard]] const std::vector<size_t>& packetPositions() const { return positions_; }
    /// The connection shown, or kNoConnection.
    [[nodiscard]] uint32_t connection() const { return connection_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ResultsPtr results_;
    uint32_t connection_ = kNoConnection;
    std::vector<size_t> positions_;
    size_t scannedTo_ = 0;  // positions_ holds the connection's packets before this position of the index
};

/// What a person reads for an analysis flag: Wireshark's words ("Previous segment not captured",
/// "Window full", "Port numbers reused"), not its field name.
QString analysisFlagTitle(AnalysisFlag flag);
/// The titles (analysisFlagTitle) of the analysis flags set in `flags`, comma separated.
QString analysisFlagsText(AnalysisFlags flags);

}  // namespace tcpscope::ui
