#pragma once
#include <QAbstractTableModel>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// Every TCP packet of the capture, as Wireshark's packet list shows them, or those a display
/// filter matched: only the rows on screen are read, from the packet index (no row is held).
class CapturePacketsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        FrameColumn,
        TimeColumn,
        DeltaColumn,  ///< since the packet on the row above (Wireshark's frame.time_delta_displayed)
        SourceColumn,
        DestinationColumn,
        StreamColumn,
        FlagsColumn,
        SeqColumn,
        AckColumn,
        LengthColumn,
        WindowColumn,
        AnalysisColumn,
        ColumnCount
    };
    /// Role giving the position of the row's packet in the packet index.
    static constexpr int PacketIndexRole = Qt::UserRole + 1;

    explicit CapturePacketsModel(QObject* parent = nullptr);
    /// Shows every packet of `results` (none while it has no packet index).
    void setResults(ResultsPtr results);
    /// Shows only the packets at `positions` (increasing), or every packet again (nullopt).
    void setMatches(std::optional<std::vector<size_t>> positions);
    [[nodiscard]] const ResultsPtr& results() const { return results_; }
    /// The packet index position of `row`.
    [[nodiscard]] size_t positionOfRow(int row) const;
    /// The row of the packet at `position`, or -1 if it is not shown.
    [[nodiscard]] int rowOfPosition(size_t position) const;
    /// The frame numbers of the rows shown, in row order (increasing).
    [[nodiscard]] std::vector<uint32_t> shownFrames() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ResultsPtr results_;
    size_t all_ = 0;                               // packets of the index
    std::optional<std::vector<size_t>> matches_;  // a filter's; none: every packet
};

}  // namespace tcpscope::ui
