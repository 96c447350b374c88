// Capture points: File > Open capture points and the Capture points tab.
#include <QFileDialog>
#include <QTabWidget>

#include "capture_points/capture_points_dialog.hpp"
#include "capture_points/points_panel.hpp"
#include "window/main_window.hpp"

namespace tcpscope::ui {

void MainWindow::openPointsDialog() {
    const QStringList files =
        QFileDialog::getOpenFileNames(this, tr("Open capture points: the captures of one incident"), QString(),
                                      tr("Captures (*.pcap *.pcapng *.cap *.gz *.zst);;All files (*)"));
    if (files.isEmpty()) {
        return;
    }
    auto* dialog = new CapturePointsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("capturePointsDialog"));
    dialog->addFiles(files);
    connect(dialog, &QDialog::accepted, this, [this, dialog]() { openPoints(dialog->points()); });
    dialog->open();
}

void MainWindow::openPoints(const std::vector<CapturePoint>& points, const QStringList& straceLogs) {
    QStringList files;
    for (const CapturePoint& point : points) {
        for (const std::string& file : point.files) {
            files << QString::fromStdString(file);
        }
    }
    LoadRequest request = requestFor(files, straceLogs);
    request.points = points;
    open(request);
}

void MainWindow::showPointsTab(const ResultsPtr& results) {
    const bool shown = results && results->points() != nullptr;
    if (!shown) {
        if (pointsPanel_ != nullptr) {
            delete pointsPanel_;  // leaves its tab
            pointsPanel_ = nullptr;
        }
        return;
    }
    if (pointsPanel_ == nullptr) {
        pointsPanel_ = new PointsPanel;
        pointsPanel_->setObjectName(QStringLiteral("pointsPanel"));
        viewTabs_->addTab(pointsPanel_, tr("Capture points"));
    }
    pointsPanel_->showResults(results);
}

}  // namespace tcpscope::ui
