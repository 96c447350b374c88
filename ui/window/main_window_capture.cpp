// The Capture menu: a live capture shown in the same views as a file while it runs, its file
// opened as any capture once it stops.
#include <QAction>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

#include "live_capture/capture_dialog.hpp"
#include "live_capture/live_capture_controller.hpp"
#include "window/main_window.hpp"

namespace tcpscope::ui {

namespace {

QString megabytes(int64_t bytes) { return QString::number(static_cast<double>(bytes) / 1e6, 'f', 1); }

QString clock(double seconds) {
    const int whole = static_cast<int>(seconds);
    return QStringLiteral("%1:%2").arg(whole / 60, 2, 10, QLatin1Char('0')).arg(whole % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

void MainWindow::buildCaptureMenu() {
    captureController_ = new LiveCaptureController(this);
    QMenu* menu = menuBar()->addMenu(tr("&Capture"));
    // Ctrl+E starts and stops, as in Wireshark: only one of the two is enabled at a time.
    startCaptureAction_ = menu->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Start capture..."), this,
                                          &MainWindow::captureDialog);
    startCaptureAction_->setObjectName(QStringLiteral("startCaptureAction"));
    startCaptureAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    startCaptureAction_->setToolTip(tr("Capture live on an interface (Ctrl+E); findings appear as they happen"));
    stopCaptureAction_ = menu->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("S&top capture"), this,
                                         &MainWindow::stopCapture);
    stopCaptureAction_->setObjectName(QStringLiteral("stopCaptureAction"));
    stopCaptureAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    stopCaptureAction_->setToolTip(tr("Stop the capture and open its file (Ctrl+E)"));
    stopCaptureAction_->setEnabled(false);
    toolbar_->addSeparator();
    toolbar_->addAction(startCaptureAction_);
    toolbar_->addAction(stopCaptureAction_);

    captureStatus_ = new QLabel;
    captureStatus_->setObjectName(QStringLiteral("captureStatus"));
    captureStatus_->hide();
    statusBar()->addPermanentWidget(captureStatus_);

    connect(captureController_, &LiveCaptureController::resultsUpdated, this, &MainWindow::showLiveResults);
    connect(captureController_, &LiveCaptureController::statusChanged, this, &MainWindow::showCaptureStatus);
    connect(captureController_, &LiveCaptureController::finished, this, &MainWindow::onCaptureFinished);
    connect(captureController_, &LiveCaptureController::startFailed, this, [this](const QString& message, const QString& fix) {
        reportProblem(message);
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot capture"), message, QMessageBox::Ok, this);
        if (!fix.isEmpty()) {
            box->setInformativeText(tr("To fix it, run once:\n%1").arg(fix));
        }
        box->setTextInteractionFlags(Qt::TextSelectableByMouse);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        emit captureFailed(message, fix);
    });
}

bool MainWindow::capturing() const { return captureController_ != nullptr && captureController_->isRunning(); }

void MainWindow::captureDialog() {
    if (capturing()) {
        return;
    }
    CaptureDialog dialog(CaptureSettings::load(QSettings()), this);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    QSettings settings;
    dialog.settings().save(settings);
    startCapture(dialog.settings());
}

bool MainWindow::startCapture(const CaptureSettings& settings) {
    LoadRequest request;
    preferences_.applyTo(request);  // the thresholds of Analysis > Thresholds, as for a file
    if (!captureController_->start(settings, request.options)) {
        return false;
    }
    loader_.cancel();
    progressBar_->hide();
    cancelButton_->hide();
    problems_.clear();
    statusBar()->clearMessage();
    savedView_.reset();
    setCapturing(true);
    setWindowTitle(tr("Capturing on %1%2 - tcpscope")
                       .arg(settings.device, settings.filter.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(settings.filter)));
    showResults(nullptr, false);
    summaryLabel_->setText(tr("Capturing: waiting for packets..."));
    return true;
}

void MainWindow::stopCapture() {
    if (capturing() && !captureController_->isStopping()) {
        stopCaptureAction_->setEnabled(false);
        captureController_->stop();
    }
}

void MainWindow::setCapturing(bool capturing) {
    startCaptureAction_->setEnabled(!capturing);
    stopCaptureAction_->setEnabled(capturing);
    openAction_->setEnabled(!capturing);
    recentMenu_->setEnabled(!capturing);
    attachAction_->setEnabled(!capturing && !request_.captures.isEmpty());
    exportPacketsAction_->setEnabled(!capturing && !request_.captures.isEmpty());
    captureStatus_->setVisible(capturing);
}

void MainWindow::showLiveResults(ResultsPtr results) {
    if (!capturing()) {
        return;
    }
    // Keep what the user selected across the snapshot, without moving the views to it again.
    const Finding* finding = currentFinding();
    const uint32_t findingId = finding != nullptr ? finding->id : UINT32_MAX;
    const QModelIndex connection = connectionsView_->currentIndex();
    const uint32_t connectionId =
        connection.isValid() ? connection.data(ConnectionsModel::ConnectionIdRole).toUInt() : kNoConnection;
    refreshingLive_ = true;
    showResults(std::move(results), false);
    if (connectionId != kNoConnection) {
        selectConnection(connectionId);
    } else {
        chartPanel_->refreshResults(results_);  // the connection-rate chart needs no selection
    }
    if (findingId != UINT32_MAX) {
        selectFinding(findingId);
    }
    refreshingLive_ = false;
    summaryLabel_->setText(summaryLabel_->text() + tr(" (live)"));
}

void MainWindow::refreshLiveConnection() {
    // Only the packets the snapshot added are read for the table; the sequence diagram and the charts are
    // drawn again for the one selected connection (the charts only while visible).
    packetsModel_.extendTo(results_);
    sequenceView_->refreshResults(results_);
    chartPanel_->refreshResults(results_);
}

void MainWindow::showCaptureStatus() {
    const LiveCaptureStatus status = captureController_->status();
    const CaptureSettings& settings = captureController_->settings();
    if (captureController_->isStopping()) {
        captureStatus_->setText(tr("Stopping: analysing the last packets and closing %1...")
                                    .arg(QFileInfo(settings.outputPath).fileName()));
        return;
    }
    captureStatus_->setText(tr("Capturing on %1%2: %3 packets, %4 dropped by the kernel, %5 not analysed, %6 MB, %7")
                                .arg(settings.device, status.viaHelper ? tr(" (via tcpscope-capture)") : QString())
                                .arg(status.kernel.captured)
                                .arg(status.kernel.droppedByKernel + status.kernel.droppedByInterface)
                                .arg(status.analysisDropped)
                                .arg(megabytes(status.fileBytes), clock(status.seconds)));
    captureStatus_->setToolTip(tr("Packets captured by the kernel for this capture; dropped by the kernel (no room in "
                                  "the capture buffer) or the interface (pcap_stats); captured but not analysed "
                                  "because the analysis fell behind (still in the file); size of %1")
                                   .arg(settings.outputPath));
}

void MainWindow::onCaptureFinished(const QStringList& files, const QString& summary, const QString& error) {
    setCapturing(false);
    emit captureFinished(files);
    if (files.isEmpty()) {
        reportProblem(error.isEmpty() ? tr("The capture wrote no file") : error);
        return;
    }
    const CaptureSettings& settings = captureController_->settings();
    openCaptures(files);  // as any capture: packet details, notes, exports work on it
    setWindowTitle(tr("%1 (captured on %2) - tcpscope").arg(QFileInfo(files.back()).fileName(), settings.device));
    statusBar()->showMessage(summary, 15000);
    if (!error.isEmpty()) {
        reportProblem(tr("The capture stopped early: %1").arg(error));
    }
}

}  // namespace tcpscope::ui
