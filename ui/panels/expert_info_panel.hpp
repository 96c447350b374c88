#pragma once
#include <QString>
#include <QWidget>

#include "loading/analysis_results.hpp"

class QTreeWidget;
class QTreeWidgetItem;

namespace tcpscope::ui {

/// Wireshark's Expert Info, with tcpscope's findings beside it: the packets of each analysis flag
/// counted under their severity (Warning, Note, Chat), then each finding with its evidence frames.
/// Activating a row asks for its packets in the packet list (filterRequested).
class ExpertInfoPanel : public QWidget {
    Q_OBJECT

public:
    enum Column { SeverityColumn, SummaryColumn, FieldColumn, CountColumn, ColumnCount };
    /// At most this many frames of a finding go into its filter.
    static constexpr size_t kMaxFindingFrames = 400;

    explicit ExpertInfoPanel(QWidget* parent = nullptr);
    /// Counts the flags of `results`' packet index (none while it has none) and lists its findings.
    void setResults(const ResultsPtr& results);
    [[nodiscard]] QTreeWidget* tree() const { return tree_; }

signals:
    /// The display filter that shows the packets of the row activated.
    void filterRequested(const QString& expression);

private:
    QTreeWidget* tree_ = nullptr;
};

}  // namespace tcpscope::ui
