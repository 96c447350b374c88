// What survives a restart: the open captures and strace logs, recent files, the selected finding,
// connection and packet, the views' zoom and position, the current tab, the window's geometry.
#include <QCloseEvent>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QSplitter>
#include <algorithm>

#include "window/main_window.hpp"

namespace tcpscope::ui {

namespace {
constexpr int kMaxRecent = 8;

const QString kCapturesKey = QStringLiteral("session/captures");
const QString kStraceLogsKey = QStringLiteral("session/straceLogs");
const QString kRecentKey = QStringLiteral("recentFiles");

bool allExist(const QStringList& files) {
    return std::all_of(files.begin(), files.end(), [](const QString& file) { return QFileInfo::exists(file); });
}
}  // namespace

void MainWindow::rememberRecent(const LoadRequest& request) {
    // Capture points are not kept: their files reopened as one capture would mean something else.
    if (!request.points.empty()) {
        return;
    }
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    const QString entry = (request.captures + request.straceLogs).join(QLatin1Char('\n'));
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent) {
        recent.removeLast();
    }
    settings.setValue(kRecentKey, recent);
    // The view of the last session belongs to its files: a different set starts afresh.
    if (settings.value(kCapturesKey).toStringList() != request.captures) {
        settings.remove(QStringLiteral("selection"));
        settings.remove(QStringLiteral("view"));
        savedView_.reset();
    }
    settings.setValue(kCapturesKey, request.captures);
    settings.setValue(kStraceLogsKey, request.straceLogs);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& entry : recent) {
        const QStringList files = entry.split(QLatin1Char('\n'));
        QStringList names;
        for (const QString& file : files) {
            names << QFileInfo(file).fileName();
        }
        recentMenu_->addAction(names.join(QStringLiteral(" + ")), this, [this, files]() { openFiles(files); });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

bool MainWindow::reopenLastSession() {
    QSettings settings;
    const QStringList captures =
        settings.value(kCapturesKey, settings.value(QStringLiteral("openFiles"))).toStringList();
    QStringList logs = settings.value(kStraceLogsKey).toStringList();
    if (captures.isEmpty() || !allExist(captures)) {
        return false;
    }
    logs.erase(std::remove_if(logs.begin(), logs.end(), [](const QString& log) { return !QFileInfo::exists(log); }),
               logs.end());
    openCaptures(captures, logs);
    return true;
}

void MainWindow::restoreWindowState() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    QMainWindow::restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    for (QSplitter* splitter : splitters_) {
        splitter->restoreState(settings.value(QStringLiteral("window/") + splitter->objectName()).toByteArray());
    }
    if (settings.contains(QStringLiteral("view/tab"))) {
        SavedView view;
        view.tab = settings.value(QStringLiteral("view/tab")).toInt();
        view.packetFrame = settings.value(QStringLiteral("selection/packetFrame"), 0).toUInt();
        if (settings.contains(QStringLiteral("view/timelineStartNs"))) {
            view.timelineRange = TimeRange{settings.value(QStringLiteral("view/timelineStartNs")).toLongLong(),
                                           settings.value(QStringLiteral("view/timelineEndNs")).toLongLong()};
        }
        view.sequencePixelsPerMs = settings.value(QStringLiteral("view/sequencePixelsPerMs"), 0.0).toDouble();
        view.sequenceCompressGaps = settings.value(QStringLiteral("view/sequenceCompressGaps"), false).toBool();
        view.sequenceCentreNs = settings.value(QStringLiteral("view/sequenceCentreNs"), 0).toLongLong();
        savedView_ = view;
    }
    updateRecentMenu();
}

void MainWindow::saveSelection() const {
    QSettings settings;
    if (const Finding* finding = currentFinding()) {
        settings.setValue(QStringLiteral("selection/finding"), finding->id);
    } else {
        settings.remove(QStringLiteral("selection/finding"));
    }
    if (const Incident* incident = currentIncident()) {
        settings.setValue(QStringLiteral("selection/incident"), incident->id);
    } else {
        settings.remove(QStringLiteral("selection/incident"));
    }
    if (packetsModel_.connection() != kNoConnection) {
        settings.setValue(QStringLiteral("selection/connection"), packetsModel_.connection());
    }
    const QModelIndex packet = packetsView_->currentIndex();
    if (packet.isValid() && results_ && results_->analysis() != nullptr) {
        const size_t position = packet.data(PacketsModel::PacketIndexRole).toULongLong();
        settings.setValue(QStringLiteral("selection/packetFrame"),
                          results_->analysis()->engine->packets().frame(position));
    } else {
        settings.remove(QStringLiteral("selection/packetFrame"));
    }
}

void MainWindow::saveWindowState() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    for (QSplitter* splitter : splitters_) {
        settings.setValue(QStringLiteral("window/") + splitter->objectName(), splitter->saveState());
    }
    if (!results_ || !results_->isComplete()) {
        return;  // keep the view of the last complete load
    }
    saveSelection();
    settings.setValue(QStringLiteral("view/tab"), viewTabs_->currentIndex());
    const TimeRange range = timelineView_->visibleRange();
    if (!range.empty()) {
        settings.setValue(QStringLiteral("view/timelineStartNs"), static_cast<qlonglong>(range.startNs));
        settings.setValue(QStringLiteral("view/timelineEndNs"), static_cast<qlonglong>(range.endNs));
    }
    settings.setValue(QStringLiteral("view/sequencePixelsPerMs"), sequenceView_->pixelsPerMs());
    settings.setValue(QStringLiteral("view/sequenceCompressGaps"), sequenceView_->compressGaps());
    const SequenceLayout& layout = sequenceView_->sequenceLayout();
    const SequenceRowRange rows = sequenceView_->visibleRows();
    if (!layout.isEmpty() && !rows.empty()) {
        const size_t middle = rows.first + (rows.end - rows.first) / 2;
        settings.setValue(QStringLiteral("view/sequenceCentreNs"),
                          static_cast<qlonglong>(layout.timeAtY(layout.rowY(std::min(middle, layout.rowCount() - 1)))));
    }
}

void MainWindow::restoreViews() {
    if (!savedView_) {
        return;
    }
    const SavedView view = *savedView_;
    savedView_.reset();  // once: later loads keep what the user does
    if (view.packetFrame != 0) {
        const int row = packetsModel_.rowOfFrame(view.packetFrame);
        if (row >= 0) {
            packetsView_->selectRow(row);
            packetsView_->scrollTo(packetsModel_.index(row, 0), QAbstractItemView::PositionAtCenter);
        }
    }
    if (view.sequencePixelsPerMs > 0) {
        sequenceView_->setCompressGaps(view.sequenceCompressGaps);
        sequenceView_->setPixelsPerMs(view.sequencePixelsPerMs);
        if (view.sequenceCentreNs != 0) {
            sequenceView_->scrollToTime(view.sequenceCentreNs);
        }
    }
    if (view.timelineRange && !view.timelineRange->empty()) {
        // After the pan the packet selection queued, and once the lanes of a big capture are built.
        const TimeRange range = *view.timelineRange;
        auto* once = new QObject(this);
        auto apply = [this, range, once]() {
            timelineView_->zoomToRange(range);
            once->deleteLater();
        };
        if (timelineView_->isBuilding()) {
            connect(timelineView_, &TimelineView::modelReady, once, apply);
        } else {
            QMetaObject::invokeMethod(once, apply, Qt::QueuedConnection);
        }
    }
    if (view.tab >= 0 && view.tab < viewTabs_->count()) {
        viewTabs_->setCurrentIndex(view.tab);
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveWindowState();
    loader_.cancel();
    stopCapture();  // the file is closed with its counters before the program ends
    event->accept();
}

}  // namespace tcpscope::ui
