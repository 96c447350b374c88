#pragma once
#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// One row per connection generation: endpoints, state, who closed, packets, bytes, duration,
/// handshake RTT, time lost and the kinds of its findings. Sorting uses the raw values. Taking a
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
        ColumnCount
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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ResultsPtr results_;
};

/// Filters connections by a text that must appear in the address, port, state or finding kinds
/// ("3306", "reset", "delayed_ack"); several words must all match.
class ConnectionsFilter : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit ConnectionsFilter(QObject* parent = nullptr);
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QStringList words_;
};

}  // namespace tcpscope::ui
