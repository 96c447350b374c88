#include "window/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

namespace tcpscope::ui {

namespace {
constexpr int kMaxRecent = 8;
const char* const kCaptureFilter = "Captures (*.pcap *.pcapng *.cap *.gz *.zst *.pcap.gz *.pcapng.gz);;All files (*)";

QWidget* titled(const QString& title, QWidget* content, QWidget* extra = nullptr) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title));
    layout->addWidget(label);
    if (extra != nullptr) {
        layout->addWidget(extra);
    }
    layout->addWidget(content);
    return box;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("tcpscope"));
    setAcceptDrops(true);
    connectionsFilter_.setSourceModel(&connectionsModel_);
    buildActions();
    buildLayout();

    connect(&loader_, &AnalysisLoader::progressChanged, this, [this](int perMille, quint64 frames) {
        progressBar_->setRange(0, perMille < 0 ? 0 : 1000);
        if (perMille >= 0) {
            progressBar_->setValue(perMille);
        }
        progressBar_->setFormat(tr("%1 packets").arg(frames));
    });
    connect(&loader_, &AnalysisLoader::partialResults, this, [this](ResultsPtr results) { showResults(results, false); });
    connect(&loader_, &AnalysisLoader::finished, this, [this](ResultsPtr results, bool cancelled) {
        progressBar_->hide();
        cancelButton_->hide();
        showResults(results, true);
        if (cancelled) {
            statusBar()->showMessage(tr("Loading cancelled: showing the packets read until then"), 10000);
        }
        emit resultsReady();
    });
    connect(&loader_, &AnalysisLoader::failed, this, [this](const QString& message) {
        progressBar_->hide();
        cancelButton_->hide();
        statusBar()->showMessage(message);
        QMessageBox::warning(this, tr("Cannot open capture"), message);
    });
    restoreState();
}

QString MainWindow::bundledSample() {
    // Next to the executable when installed, else in the source tree it was built from.
    const QString installed = QApplication::applicationDirPath() + QStringLiteral("/../share/tcpscope/samples/proxy-nagle.pcap");
    if (QFileInfo::exists(installed)) {
        return QFileInfo(installed).canonicalFilePath();
    }
    return QStringLiteral(TCPSCOPE_SAMPLES_DIR "/proxy-nagle.pcap");
}

void MainWindow::buildActions() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open capture..."), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->addAction(open);

    summaryLabel_ = new QLabel;
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
    connect(findingsView_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onFindingActivated(current); });

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
    connect(timelineView_, &TimelineView::connectionClicked, this, &MainWindow::selectConnection);
    connect(timelineView_, &TimelineView::findingClicked, this, &MainWindow::selectFinding);
    connect(timelineView_, &TimelineView::packetClicked, this, &MainWindow::showPacketFromView);
    connect(sequenceView_, &SequenceView::packetClicked, this, &MainWindow::showPacketFromView);

    connectionsFilterEdit_ = new QLineEdit;
    connectionsFilterEdit_->setPlaceholderText(tr("Filter: address, port, state or finding (e.g. 3306 delayed_ack)"));
    connectionsFilterEdit_->setClearButtonEnabled(true);
    connect(connectionsFilterEdit_, &QLineEdit::textChanged, &connectionsFilter_, &ConnectionsFilter::setFilterText);
    connectionsView_ = new QTableView;
    connectionsView_->setObjectName(QStringLiteral("connectionsView"));
    connectionsView_->setModel(&connectionsFilter_);
    connectionsView_->setSortingEnabled(true);
    connectionsView_->sortByColumn(ConnectionsModel::IdColumn, Qt::AscendingOrder);
    connectionsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    connectionsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    connectionsView_->verticalHeader()->hide();
    connectionsView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    connectionsView_->horizontalHeader()->setStretchLastSection(true);
    connect(connectionsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onConnectionSelected);

    packetsView_ = new QTableView;
    packetsView_->setObjectName(QStringLiteral("packetsView"));
    packetsView_->setModel(&packetsModel_);
    packetsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    packetsView_->setSelectionMode(QAbstractItemView::SingleSelection);
    packetsView_->verticalHeader()->hide();
    packetsView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    packetsView_->horizontalHeader()->setStretchLastSection(true);
    connect(packetsView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onPacketSelected);

    detailPanel_ = new PacketDetailPanel;
    detailPanel_->setObjectName(QStringLiteral("packetDetail"));

    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(titled(tr("Findings, by time lost"), findingsView_));
    top->addWidget(viewTabs_);
    top->setStretchFactor(0, 2);
    top->setStretchFactor(1, 3);
    top->setSizes({560, 840});
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(titled(tr("Connections"), connectionsView_, connectionsFilterEdit_));
    bottom->addWidget(titled(tr("Packets of the selected connection"), packetsView_));
    bottom->addWidget(titled(tr("Packet details"), detailPanel_));
    bottom->setStretchFactor(0, 3);
    bottom->setStretchFactor(1, 3);
    bottom->setStretchFactor(2, 2);
    auto* main = new QSplitter(Qt::Vertical);
    main->setObjectName(QStringLiteral("mainSplitter"));
    main->addWidget(top);
    main->addWidget(bottom);
    setCentralWidget(main);
}

void MainWindow::openCaptures(const QStringList& captures, const AnalysisOptions& options) {
    openFiles_ = captures;
    QStringList names;
    for (const QString& capture : captures) {
        names << QFileInfo(capture).fileName();
    }
    setWindowTitle(tr("%1 - tcpscope").arg(names.join(QStringLiteral(", "))));
    rememberRecent(captures);
    progressBar_->setValue(0);
    progressBar_->show();
    cancelButton_->show();
    showResults(nullptr, false);
    loader_.start(captures, options);
}

void MainWindow::showResults(ResultsPtr results, bool complete) {
    const uint32_t selected = pendingConnection_;
    results_ = results;
    findingsModel_.setResults(results);
    findingsView_->expandAll();
    for (int column = 0; column < FindingsModel::SummaryColumn; ++column) {
        findingsView_->resizeColumnToContents(column);
    }
    connectionsModel_.setResults(results);
    connectionsView_->resizeColumnsToContents();
    timelineView_->setResults(results);
    sequenceView_->clear();
    chartPanel_->setResults(results);
    packetsModel_.setConnection(nullptr, kNoConnection);
    detailPanel_->clearPacket();
    if (!results) {
        summaryLabel_->setText(tr("Loading..."));
        return;
    }
    const FrameCounters& counters = results->counters();
    summaryLabel_->setText(tr("%1 packets, %2 TCP, %3 connections, %4 findings%5")
                               .arg(counters.frames)
                               .arg(counters.tcp)
                               .arg(results->connections().size())
                               .arg(results->findings().size())
                               .arg(complete ? QString() : tr(" so far")));
    if (complete && selected != kNoConnection && selected < results->connections().size()) {
        selectConnection(selected);
    } else if (complete && !results->findings().empty()) {
        const QModelIndex first = findingsModel_.index(0, 0, findingsModel_.index(0, 0));
        findingsView_->setCurrentIndex(first);
    }
}

void MainWindow::onFindingActivated(const QModelIndex& index) {
    const Finding* finding = findingsModel_.findingAt(index);
    if (finding == nullptr) {
        return;
    }
    timelineView_->showFinding(finding->id);  // capture-wide findings have a lane of their own
    if (finding->connection == kNoConnection) {
        viewTabs_->setCurrentWidget(timelineView_);
        return;
    }
    selectConnection(finding->connection);
    if (!finding->frames.empty()) {
        sequenceView_->scrollToFrame(finding->frames.front());
        viewTabs_->setCurrentWidget(sequenceView_);
        const int row = packetsModel_.rowOfFrame(finding->frames.front());
        if (row >= 0) {
            packetsView_->selectRow(row);
            packetsView_->scrollTo(packetsModel_.index(row, 0), QAbstractItemView::PositionAtCenter);
        }
    }
}

void MainWindow::selectFinding(uint32_t id) {
    const QModelIndex index = findingsModel_.indexOfFinding(id);
    if (index.isValid()) {
        findingsView_->setCurrentIndex(index);
    }
}

void MainWindow::selectConnection(uint32_t id) {
    for (int row = 0; row < connectionsFilter_.rowCount(); ++row) {
        const QModelIndex index = connectionsFilter_.index(row, 0);
        if (index.data(ConnectionsModel::ConnectionIdRole).toUInt() == id) {
            connectionsView_->selectRow(row);
            connectionsView_->scrollTo(index);
            return;
        }
    }
}

void MainWindow::onConnectionSelected() {
    const QModelIndex current = connectionsView_->currentIndex();
    if (!current.isValid()) {
        return;
    }
    const uint32_t id = current.data(ConnectionsModel::ConnectionIdRole).toUInt();
    pendingConnection_ = id;
    packetsModel_.setConnection(results_, id);
    packetsView_->resizeColumnsToContents();
    if (results_ && results_->isComplete()) {
        sequenceView_->showConnection(results_, id);
        chartPanel_->showConnection(results_, id);
        timelineView_->scrollToConnection(id);
    }
    detailPanel_->clearPacket();
    QSettings().setValue(QStringLiteral("selection/connection"), id);
}

void MainWindow::onPacketSelected() {
    const QModelIndex current = packetsView_->currentIndex();
    if (!current.isValid()) {
        return;
    }
    const size_t position = current.data(PacketsModel::PacketIndexRole).toULongLong();
    detailPanel_->showPacket(results_, position);
    if (results_ && results_->analysis() != nullptr) {
        sequenceView_->scrollToFrame(results_->analysis()->engine->packets().frame(position));
        timelineView_->selectPacket(position);
        chartPanel_->followPacket(position);
    }
}

void MainWindow::showPacketFromView(size_t packetIndex) {
    const auto& positions = packetsModel_.packetPositions();
    const auto found = std::find(positions.begin(), positions.end(), packetIndex);
    if (found != positions.end()) {
        packetsView_->selectRow(static_cast<int>(found - positions.begin()));
    }
    detailPanel_->showPacket(results_, packetIndex);  // may be a packet of the proxy partner
}

void MainWindow::openDialog() {
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open capture"), QString(), tr(kCaptureFilter));
    if (!files.isEmpty()) {
        openCaptures(files);
    }
}

void MainWindow::rememberRecent(const QStringList& captures) {
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString entry = captures.join(QLatin1Char('\n'));
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent) {
        recent.removeLast();
    }
    settings.setValue(QStringLiteral("recentFiles"), recent);
    settings.setValue(QStringLiteral("openFiles"), captures);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& entry : recent) {
        const QStringList files = entry.split(QLatin1Char('\n'));
        QStringList names;
        for (const QString& file : files) {
            names << QFileInfo(file).fileName();
        }
        recentMenu_->addAction(names.join(QStringLiteral(" + ")), this, [this, files]() { openCaptures(files); });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::restoreState() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    QMainWindow::restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter"))) {
        splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray());
    }
    pendingConnection_ = settings.value(QStringLiteral("selection/connection"), kNoConnection).toUInt();
    updateRecentMenu();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    if (auto* splitter = findChild<QSplitter*>(QStringLiteral("mainSplitter"))) {
        settings.setValue(QStringLiteral("window/splitter"), splitter->saveState());
    }
    loader_.cancel();
    event->accept();
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
    if (!files.isEmpty()) {
        openCaptures(files);  // several dropped files are merged in time order
        event->acceptProposedAction();
    }
}

}  // namespace tcpscope::ui
