#pragma once
#include <QString>
#include <QWidget>

#include "loading/analysis_results.hpp"

class QAbstractItemModel;
class QModelIndex;
class QTreeView;

namespace tcpscope::ui {

class ExpertInfoModel;

/// Wireshark's Expert Info, with tcpscope's findings beside it: the packets of each analysis flag
/// counted under their severity (Warning, Note, Chat), then each finding with its evidence frames.
/// Activating a row asks for its packets in the packet list (filterRequested). The rows are made
/// as they are shown, from the results: a capture of 80,000 findings makes no item per finding.
class ExpertInfoPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { SeverityColumn, SummaryColumn, FieldColumn, CountColumn, ColumnCount };
    /// At most this many frames of a finding go into its filter.
    static constexpr size_t kMaxFindingFrames = 400;
    /// The role of the Summary column that holds a row's display filter ("" for none).
    static constexpr int kFilterRole = Qt::UserRole + 1;

    explicit ExpertInfoPanel(QWidget* parent = nullptr);
    ~ExpertInfoPanel() override;
    /// Counts the flags of `results`' packet index (none while it has none) and lists its findings.
    void setResults(const ResultsPtr& results);
    [[nodiscard]] QTreeView* view() const { return view_; }
    [[nodiscard]] const QAbstractItemModel& model() const;
    /// Asks for the packets of the row at `index` (as activating it does).
    void activate(const QModelIndex& index);

signals:
    /// The display filter that shows the packets of the row activated.
    void filterRequested(const QString& expression);

private:
    QTreeView* view_ = nullptr;
    ExpertInfoModel* model_ = nullptr;
};

}  // namespace tcpscope::ui
