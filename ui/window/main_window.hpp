#pragma once
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QProgressBar>
#include <QStringList>
#include <QTableView>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>

#include "charts/chart_panel.hpp"
#include "loading/analysis_loader.hpp"
#include "models/connections_model.hpp"
#include "models/findings_model.hpp"
#include "models/packets_model.hpp"
#include "panels/packet_detail_panel.hpp"
#include "views/sequence_view.hpp"
#include "views/timeline_view.hpp"

namespace tcpscope::ui {

/// The main window: findings first, then the connections, the packets of the selected one and
/// the selected packet's details, all linked. A thin controller: the work is in the loader,
/// the models and the views.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    /// Loads `captures` (merged in time order) with `options`; remembered for the next start.
    void openCaptures(const QStringList& captures, const AnalysisOptions& options = {});
    /// The capture the window opens when it is given none: the bundled Nagle sample.
    static QString bundledSample();
    /// The current results (partial while loading), or null.
    [[nodiscard]] const ResultsPtr& results() const { return results_; }
    /// Selects the finding with `id` and everything linked to it.
    void selectFinding(uint32_t id);
    /// Selects connection `id` in the table and shows its packets.
    void selectConnection(uint32_t id);

signals:
    /// The complete results of a load are shown.
    void resultsReady();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildActions();
    void buildLayout();
    void showResults(ResultsPtr results, bool complete);
    void onFindingActivated(const QModelIndex& index);
    void onConnectionSelected();
    void onPacketSelected();
    void showPacketFromView(size_t packetIndex);
    void openDialog();
    void updateRecentMenu();
    void rememberRecent(const QStringList& captures);
    void restoreState();

    AnalysisLoader loader_;
    ResultsPtr results_;
    QStringList openFiles_;

    FindingsModel findingsModel_;
    ConnectionsModel connectionsModel_;
    ConnectionsFilter connectionsFilter_;
    PacketsModel packetsModel_;

    QTreeView* findingsView_ = nullptr;
    QLineEdit* connectionsFilterEdit_ = nullptr;
    QTableView* connectionsView_ = nullptr;
    QTableView* packetsView_ = nullptr;
    PacketDetailPanel* detailPanel_ = nullptr;
    QTabWidget* viewTabs_ = nullptr;
    TimelineView* timelineView_ = nullptr;
    SequenceView* sequenceView_ = nullptr;
    ChartPanel* chartPanel_ = nullptr;
    QLabel* summaryLabel_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    uint32_t pendingConnection_ = kNoConnection;
};

}  // namespace tcpscope::ui
