// Selection and its echoes: a finding or incident picked in the pane, a connection in the table, a
// packet, a frame; each takes the other views with it.
#include <QStatusBar>
#include <algorithm>

#include "panels/capture_packets_panel.hpp"
#include "pictures/view_export.hpp"
#include "models/duration_text.hpp"
#include "window/main_window.hpp"

namespace tcpscope::ui {

const Finding* MainWindow::currentFinding() const { return findingsModel_.findingAt(findingsView_->currentIndex()); }

const Incident* MainWindow::currentIncident() const {
    return findingsModel_.incidentAt(findingsView_->currentIndex());
}

void MainWindow::onFindingActivated(const QModelIndex& index) {
    stallCursor_ = -1;
    if (const Incident* incident = findingsModel_.incidentAt(index)) {
        findingDetail_->showIncident(*incident);
        if (!restoringView_) {
            QSettings settings;
            settings.setValue(QStringLiteral("selection/incident"), incident->id);
            settings.remove(QStringLiteral("selection/finding"));
        }
        if (!refreshingLive_) {
            showPictureOf(incident->findings);
        }
        return;
    }
    const Finding* finding = findingsModel_.findingAt(index);
    findingDetail_->showFinding(results_, finding);
    if (finding == nullptr || refreshingLive_) {
        return;
    }
    if (!restoringView_) {
        QSettings settings;
        settings.setValue(QStringLiteral("selection/finding"), finding->id);
        settings.remove(QStringLiteral("selection/incident"));
    }
    if (finding->connection == kNoConnection) {
        showPictureOf({finding->id});
        return;
    }
    // The finding's own connection, charted and drawn without an incident's caption, even when it is
    // the connection already selected (whose row then does not change).
    sequenceView_->setCaption({});
    if (chartPanel_->isPictureShown()) {
        chartPanel_->showConnection(results_, finding->connection);
    }
    followFinding(*finding);
}

void MainWindow::showPictureOf(const std::vector<uint32_t>& findings) {
    // An incident's picture comes to the front; a finding's leaves its lane on the timeline in front.
    const bool inFront = currentIncident() != nullptr;
    const FindingList& all = results_->findings();
    std::vector<uint32_t> known;
    std::copy_if(findings.begin(), findings.end(), std::back_inserter(known),
                 [&all](uint32_t id) { return id < all.size(); });
    if (known.empty()) {
        return;
    }
    // A story of many connections: the views on its first finding (its lane, its population folded),
    // the report's picture of it in the Charts tab.
    followFinding(all[known.front()]);
    if (chartPanel_->showPicture(results_, known)) {
        if (inFront) {
            viewTabs_->setCurrentWidget(chartPanel_);
        }
        return;
    }
    // A story of connections: the views on its finding of a connection that lost the most (the report's
    // worst connection, with its proxy partner), its sequence diagram captioned.
    const Finding* lead = nullptr;
    for (const uint32_t id : known) {
        const Finding& finding = all[id];
        if (finding.connection != kNoConnection && !finding.frames.empty() &&
            (lead == nullptr || finding.durationMs > lead->durationMs)) {
            lead = &finding;
        }
    }
    if (lead == nullptr) {
        return;
    }
    followFinding(*lead);
    if (!sequenceView_->sequenceLayout().isEmpty()) {
        sequenceView_->setCaption(tr("%1: the connection of this incident that lost the most time (#%2, %3); "
                                     "brackets mark each stall and its cause.")
                                      .arg(sequenceTitle(*sequenceView_->sequenceLayout().diagram()))
                                      .arg(lead->connection)
                                      .arg(durationText(lead->durationMs)));
        viewTabs_->setCurrentWidget(sequenceView_);
    }
}

void MainWindow::followFinding(const Finding& finding) {
    timelineView_->showFinding(finding.id);  // capture-wide findings have a lane of their own
    if (finding.connection == kNoConnection) {
        viewTabs_->setCurrentWidget(timelineView_);
        return;
    }
    selectConnection(finding.connection);
    if (!finding.frames.empty()) {
        sequenceView_->scrollToFrame(finding.frames.front());
        viewTabs_->setCurrentWidget(sequenceView_);
        const int row = packetsModel_.rowOfFrame(finding.frames.front());
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
        findingsView_->scrollTo(index);
    }
}

void MainWindow::selectIncident(uint32_t id) {
    const QModelIndex index = findingsModel_.indexOfIncident(id);
    if (index.isValid()) {
        findingsView_->setCurrentIndex(index);
        findingsView_->scrollTo(index);
    }
}

void MainWindow::selectConnection(uint32_t id) {
    const QModelIndex index = connectionsFilter_.mapFromSource(connectionsModel_.indexOfConnection(id));
    if (index.isValid()) {  // not filtered out
        connectionsView_->selectRow(index.row());
        connectionsView_->scrollTo(index);
    }
}

void MainWindow::onConnectionSelected() {
    const QModelIndex current = connectionsView_->currentIndex();
    if (!current.isValid()) {
        return;
    }
    const uint32_t id = current.data(ConnectionsModel::ConnectionIdRole).toUInt();
    if (refreshingLive_ && id == packetsModel_.connection() && !sequenceView_->sequenceLayout().isEmpty()) {
        refreshLiveConnection();
        return;
    }
    packetsModel_.setConnection(results_, id);
    if (refreshingLive_) {
        return;
    }
    packetsView_->resizeColumnsToContents();
    if (results_ && results_->packets() != nullptr) {
        sequenceView_->showConnection(results_, id);
        chartPanel_->showConnection(results_, id);
        timelineView_->scrollToConnection(id);
    }
    detailPanel_->clearPacket();
    if (!restoringView_) {
        QSettings().setValue(QStringLiteral("selection/connection"), id);
    }
}

void MainWindow::onPacketSelected() {
    const QModelIndex current = packetsView_->currentIndex();
    if (!current.isValid()) {
        return;
    }
    const size_t position = current.data(PacketsModel::PacketIndexRole).toULongLong();
    detailPanel_->showPacket(results_, position);
    if (results_ && results_->packets() != nullptr) {
        sequenceView_->scrollToFrame(results_->packets()->frame(position));
        capturePackets_->selectFrame(results_->packets()->frame(position));
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

void MainWindow::showFrame(uint32_t frame, bool toSequence) {
    if (!results_ || results_->packets() == nullptr) {
        return;
    }
    const PacketIndex& packets = *results_->packets();
    const size_t position = packets.positionOfFrame(frame);
    if (position >= packets.size()) {
        return;
    }
    const uint32_t connection = packets.connection(position);
    if (connection != packetsModel_.connection()) {
        selectConnection(connection);
    }
    const int row = packetsModel_.rowOfFrame(frame);
    if (row >= 0) {
        packetsView_->selectRow(row);
        packetsView_->scrollTo(packetsModel_.index(row, 0), QAbstractItemView::PositionAtCenter);
    }
    sequenceView_->scrollToFrame(frame);
    if (toSequence) {
        viewTabs_->setCurrentWidget(sequenceView_);
    }
}

}  // namespace tcpscope::ui
