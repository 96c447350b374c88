// The Go menu: the keyboard's way through findings, packets and stalls, and to each panel.
#include <QAction>
#include <QInputDialog>
#include <QMenuBar>
#include <QStatusBar>
#include <algorithm>

#include "panels/capture_packets_panel.hpp"
#include "window/main_window.hpp"

namespace tcpscope::ui {

namespace {

// The first frame of each span of a finding (the small segment of a delayed-ACK stall), or its
// evidence frames when no span has one.
std::vector<uint32_t> stallFrames(const Finding& finding) {
    std::vector<uint32_t> frames;
    for (const FindingSpan& span : finding.spans) {
        if (!span.frames.empty()) {
            frames.push_back(span.frames.front());
        }
    }
    return frames.empty() ? finding.frames : frames;
}

}  // namespace

void MainWindow::buildGoMenu() {
    QMenu* go = menuBar()->addMenu(tr("&Go"));
    auto add = [this, go](const QString& text, const QKeySequence& key, auto slot) {
        QAction* action = go->addAction(text, this, slot);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WindowShortcut);
        return action;
    };
    add(tr("&Next finding"), QKeySequence(Qt::Key_F8), &MainWindow::nextFinding);
    add(tr("&Previous finding"), QKeySequence(Qt::SHIFT | Qt::Key_F8), &MainWindow::previousFinding);
    add(tr("Next &stall of the finding (sequence diagram)"), QKeySequence(Qt::Key_F9), [this]() { showStall(1); });
    add(tr("Previous s&tall of the finding"), QKeySequence(Qt::SHIFT | Qt::Key_F9), [this]() { showStall(-1); });
    go->addSeparator();
    add(tr("Next p&acket of the connection"), QKeySequence(Qt::CTRL | Qt::Key_Down), &MainWindow::nextPacket);
    add(tr("Previous pa&cket of the connection"), QKeySequence(Qt::CTRL | Qt::Key_Up), &MainWindow::previousPacket);
    add(tr("&Go to packet..."), QKeySequence(Qt::CTRL | Qt::Key_G), &MainWindow::askFrame);
    go->addSeparator();
    add(tr("&Findings"), QKeySequence(Qt::CTRL | Qt::Key_1), [this]() { findingsView_->setFocus(); });
    add(tr("T&imeline"), QKeySequence(Qt::CTRL | Qt::Key_2), [this]() {
        viewTabs_->setCurrentWidget(timelineView_);
        timelineView_->setFocus();
    });
    add(tr("Se&quence diagram"), QKeySequence(Qt::CTRL | Qt::Key_3), [this]() {
        viewTabs_->setCurrentWidget(sequenceView_);
        sequenceView_->setFocus();
    });
    add(tr("C&onnections"), QKeySequence(Qt::CTRL | Qt::Key_4), [this]() { connectionsView_->setFocus(); });
    add(tr("Pac&kets"), QKeySequence(Qt::CTRL | Qt::Key_5), [this]() { packetsView_->setFocus(); });
    add(tr("All packets, &display filter"), QKeySequence(Qt::CTRL | Qt::Key_Slash), [this]() {
        viewTabs_->setCurrentWidget(capturePackets_);
        capturePackets_->focusFilter();
    });
    add(tr("Filter &connections"), QKeySequence::Find, [this]() {
        connectionsFilterEdit_->setFocus();
        connectionsFilterEdit_->selectAll();
    });
}

void MainWindow::askFrame() {
    if (!results_ || results_->packets() == nullptr || results_->packets()->size() == 0) {
        statusBar()->showMessage(tr("No packets to go to"), 5000);
        return;
    }
    const PacketIndex& packets = *results_->packets();
    const int last = static_cast<int>(packets.frame(packets.size() - 1));
    const int row = packetsView_->currentIndex().row();
    const auto& positions = packetsModel_.packetPositions();
    const int current = row >= 0 && static_cast<size_t>(row) < positions.size()
                            ? static_cast<int>(packets.frame(positions[static_cast<size_t>(row)]))
                            : 1;
    bool ok = false;
    const int frame = QInputDialog::getInt(this, tr("Go to packet"), tr("Frame number (1 to %1):").arg(last), current,
                                           1, last, 1, &ok);
    if (ok) {
        goToFrame(static_cast<uint32_t>(frame));
    }
}

void MainWindow::goToFrame(uint32_t frame) {
    if (!results_ || results_->packets() == nullptr) {
        return;
    }
    const PacketIndex& packets = *results_->packets();
    const size_t position = packets.firstAtOrAfterFrame(frame);
    if (position >= packets.size()) {
        statusBar()->showMessage(tr("No TCP packet at or after frame %1").arg(frame), 8000);
        return;
    }
    const uint32_t shown = packets.frame(position);
    if (shown != frame) {
        statusBar()->showMessage(tr("Frame %1 is not a TCP packet of the capture: frame %2 shown").arg(frame).arg(shown),
                                 8000);
    }
    showFrame(shown);
}

void MainWindow::stepFinding(int step) {
    const QModelIndex next = findingsModel_.neighbourFinding(findingsView_->currentIndex(), step);
    if (next.isValid()) {
        findingsView_->setCurrentIndex(next);
        findingsView_->scrollTo(next);
    }
}

void MainWindow::stepPacket(int step) {
    const int rows = packetsModel_.rowCount();
    if (rows == 0) {
        return;
    }
    const int current = packetsView_->currentIndex().row();
    const int row = current < 0 ? (step > 0 ? 0 : rows - 1) : std::clamp(current + step, 0, rows - 1);
    packetsView_->selectRow(row);
    packetsView_->scrollTo(packetsModel_.index(row, 0));
}

uint32_t MainWindow::showStall(int step) {
    const Finding* finding = currentFinding();
    if (finding == nullptr) {
        return 0;
    }
    const std::vector<uint32_t> frames = stallFrames(*finding);
    if (frames.empty()) {
        return 0;
    }
    const int count = static_cast<int>(frames.size());
    stallCursor_ = stallCursor_ < 0 ? (step > 0 ? 0 : count - 1) : ((stallCursor_ + step) % count + count) % count;
    const uint32_t frame = frames[static_cast<size_t>(stallCursor_)];
    if (finding->connection != kNoConnection && finding->connection != packetsModel_.connection()) {
        selectConnection(finding->connection);
    }
    const int row = packetsModel_.rowOfFrame(frame);
    if (row >= 0) {
        packetsView_->selectRow(row);  // the sequence diagram and the timeline follow the packet
        packetsView_->scrollTo(packetsModel_.index(row, 0), QAbstractItemView::PositionAtCenter);
    }
    sequenceView_->scrollToFrame(frame);
    viewTabs_->setCurrentWidget(finding->connection == kNoConnection ? static_cast<QWidget*>(timelineView_)
                                                                     : sequenceView_);
    statusBar()->showMessage(tr("Stall %1 of %2 of %3 (frame %4)")
                                 .arg(stallCursor_ + 1)
                                 .arg(count)
                                 .arg(QString::fromUtf8(findingKindTitle(finding->kind).data(),
                                                        static_cast<qsizetype>(findingKindTitle(finding->kind).size())))
                                 .arg(frame),
                             5000);
    return frame;
}

}  // namespace tcpscope::ui
