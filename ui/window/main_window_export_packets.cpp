// File > Export shown packets: the packets the All packets list shows, copied to a capture file
// by the core's frame export, as `tcpscope-cli packets -Y EXPR -w OUT` copies them.
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>

#include "capture/capture_error.hpp"
#include "capture/frame_export.hpp"
#include "panels/capture_packets_panel.hpp"
#include "window/main_window.hpp"

namespace tcpscope::ui {

QString MainWindow::exportShownPacketsTo(const QString& path) {
    const CaptureAnalysis* analysis = results_ ? results_->analysis() : nullptr;
    if (analysis == nullptr || !results_->isComplete()) {
        return tr("The analysis has not finished yet.");
    }
    if (analysis->inputs.size() != 1) {
        return tr("Exporting copies the packets from one capture file; this analysis merged %1 files.")
            .arg(analysis->inputs.size());
    }
    if (capturePackets_->filtering()) {
        return tr("The display filter is still running; export once the list shows its packets.");
    }
    const std::vector<uint32_t> frames = capturePackets_->model().shownFrames();
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QString error;
    try {
        const FrameExportResult written = exportFrames(analysis->inputs.front().path, frames, path.toStdString());
        const QString filter = capturePackets_->appliedFilter();
        statusBar()->showMessage(
            filter.isEmpty() ? tr("Wrote %Ln packets to %1", nullptr, static_cast<int>(written.packets)).arg(path)
                             : tr("Wrote %Ln packets matching %1 to %2", nullptr, static_cast<int>(written.packets))
                                   .arg(filter, path),
            10'000);
    } catch (const CaptureWriteError& failure) {
        error = QString::fromStdString(failure.what());
    } catch (const CaptureError& failure) {
        error = QString::fromStdString(failure.what());
    }
    QApplication::restoreOverrideCursor();
    return error;
}

void MainWindow::exportShownPacketsDialog() {
    const QString title = tr("Export shown packets");
    const CaptureAnalysis* analysis = results_ ? results_->analysis() : nullptr;
    if (analysis == nullptr || !results_->isComplete() || analysis->inputs.empty()) {
        QMessageBox::information(this, title, tr("Open a capture and let its analysis finish first."));
        return;
    }
    // The copy keeps the input's format (pcap stays pcap), so the name proposed says it.
    const QFileInfo input(QString::fromStdString(analysis->inputs.front().path));
    const bool pcapng = analysis->inputs.front().format.container == "pcapng";
    const QString suffix = pcapng ? QStringLiteral("pcapng") : QStringLiteral("pcap");
    const QString proposed = input.dir().filePath(QStringLiteral("%1-shown.%2").arg(input.completeBaseName(), suffix));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the %Ln shown packets", nullptr, capturePackets_->model().rowCount()), proposed,
        pcapng ? tr("pcapng captures (*.pcapng);;All files (*)") : tr("pcap captures (*.pcap);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    if (const QString error = exportShownPacketsTo(path); !error.isEmpty()) {
        QMessageBox::warning(this, title, error);
    }
}

}  // namespace tcpscope::ui
