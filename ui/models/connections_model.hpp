#pragma once
#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// One row per connection generation: endpoints, state, who closed, packets, bytes, duration,
/// handshake RTT, time lost, the kinds of its findings, and the processes of its ends where the capture
/// names them. Sorting uses the raw values. Taking a
/// snapshot is constant time: what the rows derive from the findings comes with the snapshot.
class ConnectionsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        IdColumn,
        ClientColumn,
        ServerColumn,
        StateColumn,
        CloserColumn,
        PacketsColumn,
        BytesColumn,
        DurationColumn,
        RttColumn,
        TimeLostColumn,
        FindingsColumn,
        ColumnCount,
        /// Only when the capture names the process of some connection end (hasProcesses()).
        ProcessColumn = ColumnCount
    };
    /// Role giving the value to sort by (numbers as numbers).
    static constexpr int SortRole = Qt::UserRole + 1;
    /// Role giving the connection id.
    static constexpr int ConnectionIdRole = Qt::UserRole + 2;

    explicit ConnectionsModel(QObject* parent = nullptr);
    void setResults(ResultsPtr results);
    [[nodiscard]] const AnalysisResults* results() const { return results_.get(); }
    /// Whether row `left` sorts before row `right` in `column`, on the raw values (numbers,
    /// addresses); the same order as SortRole, without building a QVariant per comparison.
    [[nodiscard]] bool rowLessThan(int column, int left, int right) const;
    /// The row of connection `id` (ids are positions in the table), or an invalid index.
    [[nodiscard]] QModelIndex indexOfConnection(uint32_t id) const;
    /// Rows from the last connection to the first (false: in the table's order, by number).
    void setReversed(bool reversed);
    /// True if the capture names the process of some connection end: then ProcessColumn is shown.
    [[nodiscard]] bool hasProcesses() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    [[nodiscard]] const Connection& connectionAt(int row) const;
    [[nodiscard]] QString processText(const Connection& connection) const;
    // A row's position in the table, or a position's row: the same, or mirrored when reversed.
    [[nodiscard]] int mirrored(int rowOrPosition) const;

    ResultsPtr results_;
    bool reversed_ = false;
};

/// Filters connections by a text that must appear in the address, port, state or finding kinds
/// ("3306", "reset", "delayed_ack"); several words must all match. Sorted by the connection number
/// (the default), the rows keep the model's order (or its reverse) without comparing them: a
/// million rows are then mapped in milliseconds instead of sorted in most of a second.
class ConnectionsFilter : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit ConnectionsFilter(QObject* parent = nullptr);
    void setFilterText(const QString& text);
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QStringList words_;
};

}  // namespace tcpscope::ui
