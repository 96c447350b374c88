#pragma once
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QProgressBar>
#include <QStringList>
#include <QTableView>
#include <QTabWidget>
#include <QThreadPool>
#include <QToolButton>
#include <QTreeView>

#include <optional>

#include "charts/chart_panel.hpp"
#include "loading/analysis_loader.hpp"
#include "loading/analysis_preferences.hpp"
#include "models/connections_model.hpp"
#include "models/findings_model.hpp"
#include "models/packets_model.hpp"
#include "panels/finding_detail_panel.hpp"
#include "panels/packet_detail_panel.hpp"
#include "sequence/sequence_view.hpp"
#include "timeline/timeline_view.hpp"

class QSplitter;
class QToolBar;

namespace tcpscope::ui {

class LiveCaptureController;
class FleetWindow;
class PointsPanel;
class CapturePacketsPanel;
class ExpertInfoPanel;
struct CaptureSettings;

/// The main window: findings first, then the connections, the packets of the selected one and
/// the selected packet's details, all linked. A thin controller: the work is in the loader,
/// the models and the views. Its parts: main_window.cpp (menus, docks, linking),
/// main_window_navigation.cpp (the Go menu), main_window_session.cpp (what survives a restart),
/// main_window_points.cpp (capture points).
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    /// Cuts the connections from the window's children and loader to it before they outlive it.
    ~MainWindow() override;

    /// Loads the request's captures (merged in time order) with its strace logs; remembered for
    /// the next start.
    void open(const LoadRequest& request);
    /// Loads `captures` and `straceLogs` with the current thresholds.
    void openCaptures(const QStringList& captures, const QStringList& straceLogs = {});
    /// Sorts `files` by content into captures and strace logs: captures start a new load (with
    /// the logs among the files and `straceLogs`), logs alone are attached to what is open.
    /// Unknown files are reported in one line each. Returns false if nothing could be opened.
    bool openFiles(const QStringList& files, const QStringList& straceLogs = {});
    /// Loads the captures of one incident taken at several places as capture points (analyzePoints):
    /// each packet once, on the first point's clock, the stalls placed along the path.
    void openPoints(const std::vector<CapturePoint>& points, const QStringList& straceLogs = {});
    /// Adds strace logs to the open captures and analyses them again.
    void attachStraceLogs(const QStringList& logs);
    /// Reopens the captures and logs open at the last exit; false if there were none (or gone).
    bool reopenLastSession();
    /// The capture the window opens when it is given none: the bundled Nagle sample, and its strace log.
    static QString bundledSample();
    static QStringList bundledStraceLogs();

    /// What is loaded (or loading) now.
    [[nodiscard]] const LoadRequest& request() const { return request_; }
    /// Thresholds and strace clock; setting them analyses the open captures again.
    [[nodiscard]] const AnalysisPreferences& preferences() const { return preferences_; }
    void setPreferences(const AnalysisPreferences& preferences);
    /// The tcpdump filter of the next loads.
    void setCaptureFilter(const QString& filter) { request_.options.engine.filter = filter.toStdString(); }
    /// One-time overrides of the strace clock (the command line's --strace-tz, --strace-offset).
    void setClockOverride(const StraceClockOptions& clock) { clockOverride_ = clock; }

    /// Writes the incident report of the complete results into `directory`: what File > Export
    /// incident report does once a directory is chosen, and the same files as `tcpscope-cli report`
    /// for the same inputs. Returns an empty string, or why nothing was written.
    QString exportIncidentReportTo(const QString& directory);

    /// Writes the packets the All packets list shows now (its display filter applied) to `path`,
    /// each copied from the capture file as `tcpscope-cli packets -Y EXPR -w` copies them, and says
    /// how many in the status bar: what File > Export shown packets does once a file is chosen.
    /// Returns an empty string, or why nothing was written.
    QString exportShownPacketsTo(const QString& path);

    /// The fleet window (File > Open fleet), made at the first call and shown.
    FleetWindow& showFleet();

    /// The current results (partial while loading), or null.
    [[nodiscard]] const ResultsPtr& results() const { return results_; }
    /// Selects the finding with `id` and everything linked to it.
    void selectFinding(uint32_t id);
    /// Shows frame `frame` (or the first TCP packet after it, said in the status bar): its connection, its
    /// row in the packets table, its place in the sequence diagram.
    void goToFrame(uint32_t frame);
    /// Selects the incident with `id`: its details, and what selecting its first finding shows.
    void selectIncident(uint32_t id);
    /// Selects connection `id` in the table and shows its packets.
    void selectConnection(uint32_t id);
    /// The finding selected in the findings panel, or null.
    [[nodiscard]] const Finding* currentFinding() const;
    /// The incident selected in the findings panel, or null.
    [[nodiscard]] const Incident* currentIncident() const;

    // The Go menu (main_window_navigation.cpp).
    void nextFinding() { stepFinding(1); }
    void previousFinding() { stepFinding(-1); }
    void nextPacket() { stepPacket(1); }
    void previousPacket() { stepPacket(-1); }
    /// Shows the next (step 1) or previous (-1) stall of the selected finding in the sequence
    /// diagram, from the first one; returns its frame, or 0 if the finding has none.
    uint32_t showStall(int step);

    // Live capture (main_window_capture.cpp).
    /// Capture > Start capture: the capture dialog, then the capture.
    void captureDialog();
    /// Starts a live capture shown in the views as it runs; false (with a message box and
    /// captureFailed) if it cannot start.
    bool startCapture(const CaptureSettings& settings);
    /// Stops the live capture; its file is then opened as any capture.
    void stopCapture();
    [[nodiscard]] LiveCaptureController& captureController() { return *captureController_; }

signals:
    /// Results are shown: partial while loading (complete false), then the complete ones.
    void resultsShown(bool complete);
    /// The complete results of a load are shown (and the last session's view restored).
    void resultsReady();
    /// A load could not run (a capture that cannot be read, a file that is no capture, an invalid
    /// filter): one line. Also from openFiles() itself, before it returns false.
    void loadFailed(const QString& message);
    /// A live capture could not start: its message, and the command that fixes a missing privilege.
    void captureFailed(const QString& message, const QString& fix);
    /// A live capture ended; its files are being opened (none if it wrote none).
    void captureFinished(const QStringList& files);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    // Built once, one function per menu or panel.
    void buildFileMenu();
    void buildAnalysisMenu();
    void buildGoMenu();
    void buildHelpMenu();
    void shortcutsDialog();
    void buildCaptureMenu();
    void buildStatusBar();
    void buildLayout();
    void buildTabOrder();
    void connectLoader();

    void showResults(ResultsPtr results, bool complete);
    void selectAfterLoad();
    void onFindingActivated(const QModelIndex& index);
    // The views, the connection and its packets on `finding` (the findings panel's selection or an
    // incident's first finding).
    void followFinding(const Finding& finding);
    // What selecting an incident (or a finding of no connection) shows: for a story of many connections
    // the report's picture in the Charts tab (in front for an incident) and the views on its first
    // finding; else the views on its finding of a connection that lost the most, its sequence diagram
    // captioned.
    void showPictureOf(const std::vector<uint32_t>& findings);
    void onConnectionSelected();
    void onPacketSelected();
    void showPacketFromView(size_t packetIndex);
    /// Shows frame `frame`: its connection, its row in the packets table, and, with `toSequence`, the
    /// sequence diagram at it.
    void showFrame(uint32_t frame, bool toSequence = true);
    /// Go > Go to packet: asks for a frame number and shows it (goToFrame).
    void askFrame();
    // A request for `captures` and `straceLogs` with the current filter, thresholds and strace clock.
    [[nodiscard]] LoadRequest requestFor(const QStringList& captures, const QStringList& straceLogs) const;
    void openDialog();
    void attachDialog();
    // Capture points (main_window_points.cpp): the dialog, and the tab shown while results have points.
    void openPointsDialog();
    void showPointsTab(const ResultsPtr& results);
    void exportIncidentReportDialog();
    void exportShownPacketsDialog();  // main_window_export_packets.cpp
    void analysisOptionsDialog();
    void reload();
    /// Analysis > Follow TCP Stream: the selected connection's payload in a dialog.
    void followTcpStream();
    void reportProblem(const QString& line);
    // A problem the user must see at once (not only in the status bar): a message box that does not block.
    void showProblemDialog(const QString& title, const QString& line);
    void stepFinding(int step);
    void stepPacket(int step);
    void showLiveResults(ResultsPtr results);
    // The selected connection's packets table, sequence diagram and charts from the newest live snapshot.
    void refreshLiveConnection();
    void showCaptureStatus();
    void onCaptureFinished(const QStringList& files, const QString& summary, const QString& error);
    void setCapturing(bool capturing);
    [[nodiscard]] bool capturing() const;

    // Recent files and the state kept between runs (main_window_session.cpp).
    void updateRecentMenu();
    void rememberRecent(const LoadRequest& request);
    void restoreWindowState();
    void saveWindowState() const;
    void saveSelection() const;
    void restoreViews();

    // Frees superseded results off the GUI thread (declared first: destroyed last, after waiting).
    QThreadPool releasePool_;
    AnalysisLoader loader_;
    ResultsPtr results_;
    LoadRequest request_;
    AnalysisPreferences preferences_;
    std::optional<StraceClockOptions> clockOverride_;
    QStringList problems_;

    FindingsModel findingsModel_;
    ConnectionsModel connectionsModel_;
    ConnectionsFilter connectionsFilter_;
    PacketsModel packetsModel_;

    QTreeView* findingsView_ = nullptr;
    FindingDetailPanel* findingDetail_ = nullptr;
    QLineEdit* connectionsFilterEdit_ = nullptr;
    QTableView* connectionsView_ = nullptr;
    QTableView* packetsView_ = nullptr;
    PacketDetailPanel* detailPanel_ = nullptr;
    QTabWidget* viewTabs_ = nullptr;
    TimelineView* timelineView_ = nullptr;
    SequenceView* sequenceView_ = nullptr;
    ChartPanel* chartPanel_ = nullptr;
    CapturePacketsPanel* capturePackets_ = nullptr;
    ExpertInfoPanel* expertInfo_ = nullptr;
    PointsPanel* pointsPanel_ = nullptr;  // the Capture points tab, only while results have points
    FleetWindow* fleetWindow_ = nullptr;
    QLabel* summaryLabel_ = nullptr;
    QProgressBar* progressBar_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    QMenu* fileMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* attachAction_ = nullptr;
    QAction* exportPacketsAction_ = nullptr;  // File > Export shown packets, while a capture is open
    QToolBar* toolbar_ = nullptr;
    LiveCaptureController* captureController_ = nullptr;
    QAction* startCaptureAction_ = nullptr;
    QAction* stopCaptureAction_ = nullptr;
    QLabel* captureStatus_ = nullptr;
    std::vector<QSplitter*> splitters_;  // saved and restored by object name

    /// What the last session showed, applied once to the first complete results of the same files.
    struct SavedView {
        uint32_t finding = UINT32_MAX;
        uint32_t connection = kNoConnection;
        uint32_t packetFrame = 0;
        int tab = -1;
        std::optional<TimeRange> timelineRange;
        double sequencePixelsPerMs = 0;
        bool sequenceCompressGaps = false;
        int64_t sequenceCentreNs = 0;
    };
    std::optional<SavedView> savedView_;
    bool restoringView_ = false;       // selection changes while restoring are not saved
    bool refreshingLive_ = false;      // a live snapshot replaces the results: keep the selection, move nothing
    int stallCursor_ = -1;             // the stall of the current finding shown last
};

}  // namespace tcpscope::ui
