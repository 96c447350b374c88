#include "window/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>

#include "align/failed_connects.hpp"
#include "pictures/headless_export.hpp"
#include "pictures/view_export.hpp"
#include "pictures/view_export_dialog.hpp"
#include "fleet_browser/fleet_window.hpp"
#include "live_capture/live_capture_controller.hpp"
#include "loading/bundled_samples.hpp"
#include "loading/input_kind.hpp"
#include "models/duration_text.hpp"
#include "notes/notes_controller.hpp"
#include "panels/capture_packets_panel.hpp"
#include "panels/expert_info_panel.hpp"
#include "panels/follow_stream_dialog.hpp"
#include "panels/analysis_options_dialog.hpp"

namespace tcpscope::ui {

namespace {
const char* const kCaptureFilter = "Captures (*.pcap *.pcapng *.cap *.gz *.zst *.pcap.gz *.pcapng.gz);;All files (*)";
const char* const kStraceFilter = "strace logs (*.strace *.strace.* *.log *.txt *.gz *.zst);;All files (*)";

QWidget* titled(const QString& title, QWidget* content, QWidget* extra = nullptr) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title));
    label->setBuddy(content);
    layout->addWidget(label);
    if (extra != nullptr) {
        layout->addWidget(extra);
    }
    layout->addWidget(content);
    return box;
}

// Keeps the findings' wall-clock column (the first) in view: the view scrolls to the selected
// finding's name, so that column is kept no wider than what the panel has left beside it (nor
// wider than its contents, the view's "naturalNamePx" as the last sizing to contents left it).
void fitFindingName(QTreeView& view) {
    constexpr int kNarrowestPx = 90;
    QHeaderView* header = view.header();
    const int natural = view.property("naturalNamePx").toInt();
    const int room = view.viewport()->width() - header->sectionSize(FindingsModel::TimeLostColumn);
    header->resizeSection(FindingsModel::KindColumn, std::max(std::min(natural, room), kNarrowestPx));
}

// fitFindingName() whenever the view is resized.
class FindingNameFit : public QObject {
public:
    explicit FindingNameFit(QTreeView* view) : QObject(view), view_(view) {
        view->viewport()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Resize) {
            fitFindingName(*view_);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QTreeView* view_;
};

}  // namespace

// QWidget deletes the children after this body, and the loader member goes right after it: a
// signal one of them emits while it is destroyed (a combo box cleared, a load cancelled) would
// reach a lambda that reads this half-destroyed window. Every connection from them to the window,
// or to the capture controller as context, is cut first.
MainWindow::~MainWindow() {
    QObject::disconnect(&loader_, nullptr, this, nullptr);
    const QList<QObject*> children = findChildren<QObject*>();
    for (QObject* child : children) {
        QObject::disconnect(child, nullptr, this, nullptr);
        if (captureController_ != nullptr && child != captureController_) {
            QObject::disconnect(child, nullptr, captureController_, nullptr);
        }
    }
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    releasePool_.setMaxThreadCount(1);
    setWindowTitle(tr("tcpscope"));
    setAcceptDrops(true);
    connectionsFilter_.setSourceModel(&connectionsModel_);
    preferences_ = AnalysisPreferences::load(QSettings());
    buildFileMenu();
    buildCaptureMenu();
    buildAnalysisMenu();
    buildGoMenu();
    buildHelpMenu();
    buildStatusBar();
    buildLayout();
    buildTabOrder();
    connectLoader();
    // The Notes dock and menu, notes in the views (ui/notes).
    auto* notes = new NotesController({this, [this] { return results_; }, [this] { return currentFinding(); },
                                       [this](uint32_t id) { selectFinding(id); }},
                                      {timelineView_, sequenceView_, packetsView_, findingsView_, viewTabs_});
    connect(this, &MainWindow::resultsShown, notes, &NotesController::onResults);
    restoreWindowState();
}

FleetWindow& MainWindow::showFleet() {
    if (fleetWindow_ == nullptr) {
        fleetWindow_ = new FleetWindow(this);
    }
    fleetWindow_->show();
    fleetWindow_->raise();
    fleetWindow_->activateWindow();
    return *fleetWindow_;
}

QString MainWindow::bundledSample() { return bundledFile(QStringLiteral("proxy-nagle.pcap")); }

QStringList MainWindow::bundledStraceLogs() { return {bundledFile(QStringLiteral("proxy-nagle.strace"))}; }

void MainWindow::buildFileMenu() {
    fileMenu_ = menuBar()->addMenu(tr("&File"));
    openAction_ = fileMenu_->addAction(tr("&Open capture..."), this, &MainWindow::openDialog);
    openAction_->setShortcut(QKeySequence::Open);
    attachAction_ = fileMenu_->addAction(tr("&Attach strace log..."), this, &MainWindow::attachDialog);
    attachAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    attachAction_->setToolTip(tr("Add the system calls of a traced process (strace -f -tt -T -yy) to the open capture"));
    attachAction_->setEnabled(false);
    QAction* points = fileMenu_->addAction(tr("Open capture &points..."), this, &MainWindow::openPointsDialog);
    points->setObjectName(QStringLiteral("openPointsAction"));
    points->setToolTip(
        tr("Captures of one incident taken at several places (client, proxy, server): each packet "
           "once, the clocks fitted, the stalls placed along the path"));
    recentMenu_ = fileMenu_->addMenu(tr("Open &recent"));
    fileMenu_->addSeparator();
    fileMenu_->addAction(tr("&Export diagram..."), this, [this] {
        if (viewTabs_->currentWidget() == chartPanel_) {
            exportChartDialog(this, chartPanel_->view(), results_.get());
        } else {
            exportShownViewDialog(this, *timelineView_, *sequenceView_, viewTabs_->currentWidget() == sequenceView_);
        }
    });
    QAction* report =
        fileMenu_->addAction(tr("Export incident &report..."), this, &MainWindow::exportIncidentReportDialog);
    report->setObjectName(QStringLiteral("exportIncidentReportAction"));
    report->setToolTip(tr("Write report.md, report.html and report.pdf with the summary, one section per cause and "
                          "their pictures, as tcpscope-cli report does"));
    exportPacketsAction_ =
        fileMenu_->addAction(tr("Export &shown packets..."), this, &MainWindow::exportShownPacketsDialog);
    exportPacketsAction_->setObjectName(QStringLiteral("exportShownPacketsAction"));
    exportPacketsAction_->setToolTip(tr("Write the packets the All packets list shows (its display filter applied) to "
                                        "a capture file, each unchanged, as tcpscope-cli packets -Y EXPR -w does"));
    exportPacketsAction_->setEnabled(false);
    fileMenu_->addSeparator();
    QAction* fleet = fileMenu_->addAction(tr("Open &fleet..."), this, [this] { showFleet(); });
    fleet->setObjectName(QStringLiteral("openFleetAction"));
    fleet->setToolTip(tr("The findings of many hosts from the records they export into ClickHouse (tcpscope-cli "
                         "export --to clickhouse://...), and what no single host shows"));
    fileMenu_->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    toolbar_ = addToolBar(tr("Main"));
    toolbar_->setObjectName(QStringLiteral("mainToolbar"));
    toolbar_->addAction(openAction_);
    toolbar_->addAction(attachAction_);
}

void MainWindow::buildAnalysisMenu() {
    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    QAction* options = analysis->addAction(tr("&Thresholds and strace clock..."), this, &MainWindow::analysisOptionsDialog);
    options->setObjectName(QStringLiteral("analysisOptionsAction"));
    options->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    QAction* again = analysis->addAction(tr("Analyse &again"), this, &MainWindow::reload);
    again->setShortcut(QKeySequence::Refresh);
    analysis->addSeparator();
    QAction* follow = analysis->addAction(tr("Follow &TCP Stream"), this, &MainWindow::followTcpStream);
    follow->setObjectName(QStringLiteral("followTcpStreamAction"));
    follow->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::SHIFT | Qt::Key_T));  // Wireshark's
}

void MainWindow::followTcpStream() {
    const uint32_t connection = packetsModel_.connection();
    if (!results_ || !results_->isComplete() || connection == kNoConnection) {
        statusBar()->showMessage(tr("Follow TCP Stream: select a connection of a loaded capture first"), 5000);
        return;
    }
    auto* dialog = new FollowStreamDialog(results_, connection, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void MainWindow::buildStatusBar() {
    summaryLabel_ = new QLabel;
    // A long summary (its numbers while loading, the traced sockets) is cut at the window's edge rather
    // than widening the window beyond the screen (a 1024 px one).
    summaryLabel_->setMinimumWidth(1);
    statusBar()->addWidget(summaryLabel_, 1);
    progressBar_ = new QProgressBar;
    progressBar_->setMaximumWidth(240);
    progressBar_->setTextVisible(true);
    progressBar_->hide();
    statusBar()->addPermanentWidget(progressBar_);
    cancelButton_ = new QToolButton;
    cancelButton_->setText(tr("Cancel"));
    cancelButton_->hide();
    connect(cancelButton_, &QToolButton::clicked, &loader_, &AnalysisLoader::cancel);
    statusBar()->addPermanentWidget(cancelButton_);
}

void MainWindow::buildLayout() {
    findingsView_ = new QTreeView;
    findingsView_->setObjectName(QStringLiteral("findingsView"));
    findingsView_->setModel(&findingsModel_);
    findingsView_->setUniformRowHeights(true);
    findingsView_->setAlternatingRowColors(true);
    findingsView_->header()->setStretchLastSection(true);
    // The wall-clock time lost first (see showResults), the tree's branches with the finding's name.
    findingsView_->setTreePosition(FindingsModel::KindColumn);
    new FindingNameFit(findingsView_);
    connect(findingsView_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onFindingActivated(current); });
    findingDetail_ = new FindingDetailPanel;
    findingDetail_->setObjectName(QStringLiteral("findingDetail"));
    connect(findingDetail_, &FindingDetailPanel::frameActivated, this, [this](uint32_t frame) { showFrame(frame); });

    viewTabs_ = new QTabWidget;
    viewTabs_->setObjectName(QStringLiteral("viewTabs"));
    timelineView_ = new TimelineView;
    timelineView_->setObjectName(QStringLiteral("timelineView"));
    viewTabs_->addTab(timelineView_, tr("Timeline"));
    sequenceView_ = new SequenceView;
    sequenceView_->setObjectName(QStringLiteral("sequenceView"));
    viewTabs_->addTab(sequenceView_, tr("Sequence"));
    chartPanel_ = new ChartPanel;
    chartPanel_->setObjectName(QStringLiteral("chartPanel"));
    viewTabs_->addTab(chartPanel_, tr("Charts"));
    capturePackets_ = new CapturePacketsPanel;
    capturePackets_->setObjectName(QStringLiteral("capturePackets"));
    viewTabs_->addTab(capturePackets_, tr("All packets"));
    connect(capturePackets_, &CapturePacketsPanel::packetSelected, this,
            [this](uint32_t frame) { showFrame(frame, false); });
    expertInfo_ = new ExpertInfoPanel;
    expertInfo_->setObjectName(QStringLiteral("expertInfoPanel"));
    viewTabs_->addTab(expertInfo_, tr("Expert info"));
    connect(expertInfo_, &ExpertInfoPanel::filterRequested, this, [this](const QString& expression) {
        viewTabs_->setCurrentWidget(capturePackets_);
        capturePackets_->applyFilter(expression);
    });
    // During a live capture the host chart's series come with the snapshots while it is shown.
    // The I/O graph draws the packet list's filter until the user types filters of its own.
    connect(capturePackets_, &CapturePacketsPanel::filtered, chartPanel_,
            [this]() { chartPanel_->followPacketListFilter(capturePackets_->appliedFilter()); });
    connect(chartPanel_, &ChartPanel::populationHostChanged, captureController_,
            [this]() { captureController_->setPopulationHost(chartPanel_->populationHost()); });
    connect(timelineView_, &TimelineView::connectionClicked, this, &MainWindow::selectConnection);
    connect(timelineView_, &TimelineView::findingClicked, this, &MainWindow::selectFinding);
    connect(timelineView_, &TimelineView::packetClicked, this, &MainWindow::showPacketFromView);
    connect(sequenceView_, &SequenceView::packetClicked, this, &MainWindow::showPacketFromView);

    connectionsFilterEdit_ = new QLineEdit;
    connectionsFilterEdit_->setObjectName(QStringLiteral("connectionsFilter"));
    connectionsFilterEdit_->setPlaceholderText(tr("Filter: address, port, state or finding (e.g. 3306 Nagle)"));
    connectionsFilterEdit_->setClearButtonEnabled(true);
    connect(connectionsFilterEdit_, &QLineEdit::textChanged, &connectionsFilter_, &ConnectionsFilter::setFilterText);
    connectionsView_ = new QTableView;
    connectionsView_->setObjectName(QStringLiteral("connectionsView"));
    connectionsView_->setModel(&connectionsFilter_);
    connectionsView_->setSortingEnabled(true);
    connectionsView_->sortByColumn(ConnectionsModel::IdColumn, Qt::AscendingOrder);
    connectionsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    connectionsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    connectionsView_->setTabKeyNavigation(false);
    connectionsView_->verticalHeader()->hide();
    connectionsView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    connectionsView_->horizontalHeader()->setStretchLastSection(true);
    // The numbers an incident is read by next to the id, on screen in the narrowest window (1024 px):
    // #, time lost, RTT, findings; then what Wireshark's conversations give (packets, bytes,
    // duration), on screen in a 1920 px window; then client, server and the rest.
    int visual = 1;
    for (const int column :
         {ConnectionsModel::TimeLostColumn, ConnectionsModel::RttColumn, ConnectionsModel::FindingsColumn,
          ConnectionsModel::PacketsColumn, ConnectionsModel::BytesColumn, ConnectionsModel::DurationColumn}) {
        QHeaderView* header = connectionsView_->horizontalHeader();
        header->moveSection(header->visualIndex(column), visual++);
    }
    connect(connectionsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onConnectionSelected);

    packetsView_ = new QTableView;
    packetsView_->setObjectName(QStringLiteral("packetsView"));
    packetsView_->setModel(&packetsModel_);
    packetsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    packetsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    packetsView_->setTabKeyNavigation(false);
    packetsView_->verticalHeader()->hide();
    packetsView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    packetsView_->horizontalHeader()->setStretchLastSection(true);
    connect(packetsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onPacketSelected);

    detailPanel_ = new PacketDetailPanel;
    detailPanel_->setObjectName(QStringLiteral("packetDetail"));

    auto* findings = new QSplitter(Qt::Vertical);
    findings->setObjectName(QStringLiteral("findingsSplitter"));
    findings->addWidget(titled(tr("&Incidents and findings, by wall-clock time lost"), findingsView_));
    findings->addWidget(titled(tr("Details"), findingDetail_));
    // The list needs the rows of the first incident (its title, its findings); the details the
    // incident's title, impact, chain and first fix, which a 1366 x 768 window shows without scrolling.
    findings->setSizes({170, 330});
    auto* top = new QSplitter(Qt::Horizontal);
    top->setObjectName(QStringLiteral("topSplitter"));
    top->addWidget(findings);
    top->addWidget(viewTabs_);
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 2);
    top->setSizes({480, 920});  // the views get the room: a proxy's sequence diagram has three lifelines
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->setObjectName(QStringLiteral("bottomSplitter"));
    bottom->addWidget(titled(tr("&Connections"), connectionsView_, connectionsFilterEdit_));
    bottom->addWidget(titled(tr("&Packets of the selected connection"), packetsView_));
    bottom->addWidget(titled(tr("Packet &details"), detailPanel_));
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 3);
    bottom->setStretchFactor(2, 2);
    auto* main = new QSplitter(Qt::Vertical);
    main->setObjectName(QStringLiteral("mainSplitter"));
    main->addWidget(top);
    main->addWidget(bottom);
    main->setSizes({600, 300});
    splitters_ = {main, top, bottom, findings};
    setCentralWidget(main);
}

void MainWindow::buildTabOrder() {
    // Reading order: findings and their details, the views, then connections, packets, packet details.
    setTabOrder(findingsView_, findingDetail_);
    setTabOrder(findingDetail_, viewTabs_);
    setTabOrder(viewTabs_, timelineView_);
    setTabOrder(timelineView_, sequenceView_);
    setTabOrder(sequenceView_, connectionsFilterEdit_);
    setTabOrder(connectionsFilterEdit_, connectionsView_);
    setTabOrder(connectionsView_, packetsView_);
    setTabOrder(packetsView_, detailPanel_);
}

void MainWindow::connectLoader() {
    connect(&loader_, &AnalysisLoader::progressChanged, this, [this](int perMille, quint64 frames) {
        progressBar_->setRange(0, perMille < 0 ? 0 : 1000);
        if (perMille >= 0) {
            progressBar_->setValue(perMille);
        }
        progressBar_->setFormat(tr("%1 packets").arg(frames));
    });
    // A load replaced by a live capture (which cancelled it) shows nothing of itself.
    connect(&loader_, &AnalysisLoader::partialResults, this, [this](ResultsPtr results) {
        if (!capturing()) {
            showResults(results, false);
        }
    });
    connect(&loader_, &AnalysisLoader::warning, this, &MainWindow::reportProblem);
    // A log of another process, host or day: said where it cannot be missed; the capture stays shown.
    connect(&loader_, &AnalysisLoader::straceRejected, this, [this](const QString& reason) {
        reportProblem(reason);
        showProblemDialog(tr("System call trace not used"), reason);
    });
    connect(&loader_, &AnalysisLoader::finished, this, [this](ResultsPtr results, bool cancelled) {
        progressBar_->hide();
        cancelButton_->hide();
        if (capturing()) {
            return;
        }
        showResults(results, true);
        if (cancelled) {
            statusBar()->showMessage(tr("Loading cancelled: showing the packets read until then"), 10000);
        }
        emit resultsReady();
    });
    connect(&loader_, &AnalysisLoader::failed, this, [this](const QString& message) {
        progressBar_->hide();
        cancelButton_->hide();
        reportProblem(message);
        showProblemDialog(tr("Cannot open capture"), message);
        emit loadFailed(message);
    });
}

void MainWindow::open(const LoadRequest& request) {
    request_ = request;
    QStringList names;
    for (const QString& capture : request.captures) {
        names << QFileInfo(capture).fileName();
    }
    for (const QString& log : request.straceLogs) {
        names << QFileInfo(log).fileName();
    }
    setWindowTitle(tr("%1 - tcpscope").arg(names.join(QStringLiteral(", "))));
    rememberRecent(request);
    problems_.clear();
    statusBar()->clearMessage();
    attachAction_->setEnabled(!request.captures.isEmpty());
    exportPacketsAction_->setEnabled(!request.captures.isEmpty());
    stallCursor_ = -1;
    progressBar_->setValue(0);
    progressBar_->show();
    cancelButton_->show();
    showResults(nullptr, false);
    loader_.start(request);
}

void MainWindow::openCaptures(const QStringList& captures, const QStringList& straceLogs) {
    open(requestFor(captures, straceLogs));
}

LoadRequest MainWindow::requestFor(const QStringList& captures, const QStringList& straceLogs) const {
    LoadRequest request;
    request.captures = captures;
    request.straceLogs = straceLogs;
    request.options.engine = request_.options.engine;  // keep the filter
    preferences_.applyTo(request);
    if (clockOverride_) {
        request.clock = *clockOverride_;
    }
    return request;
}

bool MainWindow::openFiles(const QStringList& files, const QStringList& straceLogs) {
    QStringList captures;
    QStringList logs = straceLogs;
    QString refused;
    for (const QString& file : files) {
        const InputClassification input = classifyInput(file.toStdString());
        switch (input.kind) {
            case InputKind::Capture: captures << file; break;
            case InputKind::StraceLog: logs << file; break;
            case InputKind::Unknown:
                refused = QString::fromStdString(input.reason);
                reportProblem(refused);
                break;
        }
    }
    if (!captures.isEmpty()) {
        openCaptures(captures, logs);
    } else if (!logs.isEmpty() && !request_.captures.isEmpty()) {
        attachStraceLogs(logs);
    } else if (!logs.isEmpty()) {
        refused = tr("%1: an strace log needs a capture: open the capture first").arg(logs.front());
        reportProblem(refused);
    }
    const bool opened = !captures.isEmpty() || (!logs.isEmpty() && !request_.captures.isEmpty());
    if (!opened && !refused.isEmpty()) {
        showProblemDialog(tr("Cannot open"), refused);
        emit loadFailed(refused);
    }
    return opened;
}

void MainWindow::showProblemDialog(const QString& title, const QString& line) {
    auto* box = new QMessageBox(QMessageBox::Warning, title, line, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();  // not exec(): the window and its event loop go on
}

void MainWindow::attachStraceLogs(const QStringList& logs) {
    LoadRequest request = request_;
    for (const QString& log : logs) {
        if (!request.straceLogs.contains(log)) {
            request.straceLogs << log;
        }
    }
    open(request);
}

void MainWindow::setPreferences(const AnalysisPreferences& preferences) {
    preferences_ = preferences;
    QSettings settings;
    preferences_.save(settings);
    clockOverride_.reset();  // the dialog's clock replaces the command line's
    reload();
}

void MainWindow::reload() {
    if (request_.captures.isEmpty() || capturing()) {
        return;
    }
    LoadRequest request = request_;
    preferences_.applyTo(request);
    if (clockOverride_) {
        request.clock = *clockOverride_;
    }
    saveSelection();  // come back to the same finding and connection
    savedView_.reset();
    open(request);
}

void MainWindow::reportProblem(const QString& line) {
    problems_ << line;
    statusBar()->showMessage(problems_.size() == 1 ? line : tr("%1 (and %2 more problems)").arg(line).arg(problems_.size() - 1));
    statusBar()->setToolTip(problems_.join(QLatin1Char('\n')));
}

void MainWindow::showResults(ResultsPtr results, bool complete) {
    ResultsPtr superseded = std::exchange(results_, results);
    showPointsTab(results);
    findingsModel_.setResults(results);
    // The wall-clock time lost first, so that it stays on screen however narrow the panel (a 1024 px
    // window); a reset of the model puts the columns back in their order.
    QHeaderView* findingsHeader = findingsView_->header();
    if (findingsHeader->visualIndex(FindingsModel::TimeLostColumn) > 0) {
        findingsHeader->moveSection(findingsHeader->visualIndex(FindingsModel::TimeLostColumn), 0);
    }
    // Every incident and kind opened; not expandAll(), which keeps a persistent index of every
    // finding as well: 33 s of the GUI thread for W1's 82,756 findings, against 0.1 s this way.
    findingsView_->expandToDepth(0);
    for (int column = 0; column < FindingsModel::SummaryColumn; ++column) {
        findingsView_->resizeColumnToContents(column);
    }
    findingsView_->setProperty("naturalNamePx", findingsView_->header()->sectionSize(FindingsModel::KindColumn));
    fitFindingName(*findingsView_);
    findingDetail_->clearFinding();
    connectionsModel_.setResults(results);
    connectionsView_->resizeColumnsToContents();
    timelineView_->setResults(results);
    capturePackets_->setResults(results);
    expertInfo_->setResults(results && results->isComplete() ? results : nullptr);
    if (!refreshingLive_) {  // a live refresh takes the selected connection's views along (onConnectionSelected)
        sequenceView_->clear();
        chartPanel_->setResults(results);
        packetsModel_.setConnection(nullptr, kNoConnection);
        detailPanel_->clearPacket();
    }
    // Every view has let go of the results shown before; freeing a big snapshot (a million
    // connections, tens of thousands of findings with their evidence) took the GUI thread 1.6 s.
    if (superseded.use_count() == 1) {
        releasePool_.start([superseded = std::move(superseded)]() mutable { superseded.reset(); });
    }
    if (!results) {
        summaryLabel_->setText(tr("Loading..."));
        return;
    }
    const FrameCounters& counters = results->counters();
    const StraceAlignment* alignment = results->alignment();
    const size_t findings = results->findings().size();
    summaryLabel_->setText(tr("%1 packets, %2 TCP, %3 connections, %4%5%6")
                               .arg(counters.frames)
                               .arg(counters.tcp)
                               .arg(results->connections().size())
                               .arg(findings == 1 ? tr("1 finding") : tr("%1 findings").arg(findings))
                               .arg(alignment != nullptr ? QStringLiteral(", ") + QString::fromStdString(tracedSocketsText(*alignment))
                                                         : QString())
                               .arg(complete ? QString() : tr(" so far")));
    if (complete) {
        selectAfterLoad();
    }
    emit resultsShown(complete);
}

void MainWindow::selectAfterLoad() {
    restoringView_ = true;
    const QSettings settings;
    const uint32_t finding = settings.value(QStringLiteral("selection/finding"), UINT32_MAX).toUInt();
    const uint32_t incident = settings.value(QStringLiteral("selection/incident"), UINT32_MAX).toUInt();
    const uint32_t connection = settings.value(QStringLiteral("selection/connection"), kNoConnection).toUInt();
    if (finding < results_->findings().size()) {
        selectFinding(finding);
    } else if (incident < results_->incidents().size()) {
        selectIncident(incident);
    } else if (connection < results_->connections().size()) {
        selectConnection(connection);
    } else if (!results_->incidents().empty()) {
        selectIncident(results_->incidents().front().id);
    } else if (!results_->findings().empty()) {
        findingsView_->setCurrentIndex(findingsModel_.neighbourFinding({}, 1));
    } else if (!results_->connections().empty()) {
        selectConnection(results_->connections().front().id);
    }
    if (results_->findings().empty()) {
        findingDetail_->setPlainText(tr("No findings: none of the %1 connections was held up by Nagle and delayed ACKs, "
                                        "retransmission or zero-window stalls, port reuse, TIME_WAIT churn, port "
                                        "exhaustion or a full listen backlog (with the thresholds of Analysis > "
                                        "Thresholds).")
                                         .arg(results_->connections().size()));
    }
    restoreViews();
    restoringView_ = false;
}

void MainWindow::openDialog() {
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open capture"), QString(), tr(kCaptureFilter));
    if (!files.isEmpty()) {
        openFiles(files);
    }
}

void MainWindow::attachDialog() {
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Attach strace log"), QFileInfo(request_.captures.value(0)).path(), tr(kStraceFilter));
    if (!files.isEmpty()) {
        attachStraceLogs(files);
    }
}

QString MainWindow::exportIncidentReportTo(const QString& directory) {
    if (!results_ || !results_->isComplete()) {
        return tr("The analysis has not finished yet.");
    }
    // The pictures are drawn by the views' widgets, so on this thread: a wait cursor meanwhile.
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const ExportOutcome outcome = exportIncidentReport(results_, directory);
    QApplication::restoreOverrideCursor();
    if (outcome.error.isEmpty()) {
        statusBar()->showMessage(tr("Wrote the %1 to %2").arg(outcome.description, directory), 10'000);
    }
    return outcome.error;
}

void MainWindow::exportIncidentReportDialog() {
    const QString title = tr("Export incident report");
    if (!results_ || !results_->isComplete()) {
        QMessageBox::information(this, title, tr("Open a capture and let its analysis finish first."));
        return;
    }
    const QString directory = QFileDialog::getExistingDirectory(
        this, tr("Export incident report into a directory"), QFileInfo(request_.captures.value(0)).path());
    if (directory.isEmpty()) {
        return;
    }
    if (const QString error = exportIncidentReportTo(directory); !error.isEmpty()) {
        QMessageBox::warning(this, title, error);
    }
}

void MainWindow::analysisOptionsDialog() {
    AnalysisOptionsDialog dialog(preferences_, this);
    if (dialog.exec() == QDialog::Accepted) {
        setPreferences(dialog.preferences());
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) {
        event->acceptProposedAction();
    }
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList files;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile()) {
            files << url.toLocalFile();
        }
    }
    // Several dropped captures are merged in time order; dropped strace logs go with them.
    if (!files.isEmpty() && !capturing() && openFiles(files)) {
        event->acceptProposedAction();
    }
}

}  // namespace tcpscope::ui
