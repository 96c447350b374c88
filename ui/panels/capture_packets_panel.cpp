#include "panels/capture_packets_panel.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <memory>

#include "capture/capture_error.hpp"
#include "filter/display_filter.hpp"
#include "filter/frame_record.hpp"

namespace tcpscope::ui {

CapturePacketsPanel::CapturePacketsPanel(QWidget* parent) : QWidget(parent) {
    filter_ = new QLineEdit;
    filter_->setObjectName(QStringLiteral("displayFilter"));
    filter_->setPlaceholderText(tr("Display filter, e.g. tcp.analysis.flags && tcp.port == 3306 (Enter applies)"));
    filter_->setClearButtonEnabled(true);
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("displayFilterStatus"));
    status_->setWordWrap(true);
    view_ = new QTableView;
    view_->setObjectName(QStringLiteral("capturePacketsView"));
    view_->setModel(&model_);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 4);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setWordWrap(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(filter_);
    layout->addWidget(status_);
    layout->addWidget(view_);

    connect(filter_, &QLineEdit::returnPressed, this, [this] { applyFilter(filter_->text()); });
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (text.isEmpty() && !applied_.isEmpty()) {
            applyFilter({});  // the clear button shows every packet again
        }
    });
    connect(&watcher_, &QFutureWatcher<Matches>::finished, this, &CapturePacketsPanel::showMatches);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (current.isValid() && !selecting_) {
            emit packetSelected(current.siblingAtColumn(CapturePacketsModel::FrameColumn).data().toUInt());
        }
    });
}

CapturePacketsPanel::~CapturePacketsPanel() {
    *stop_ = true;
    watcher_.waitForFinished();
}

void CapturePacketsPanel::setResults(ResultsPtr results) {
    const bool complete = results && results->isComplete();
    model_.setResults(std::move(results));
    view_->resizeColumnsToContents();
    filter_->setEnabled(complete);
    if (complete && !applied_.isEmpty()) {
        applyFilter(applied_);
    } else {
        showCount();
    }
}

CapturePacketsPanel::Matches CapturePacketsPanel::match(const ResultsPtr& results, const std::string& expression,
                                                        const std::shared_ptr<const std::atomic<bool>>& stop) {
    Matches matches;
    const CaptureAnalysis* analysis = results ? results->analysis() : nullptr;
    if (analysis == nullptr || results->packets() == nullptr) {
        return matches;
    }
    try {
        const filter::DisplayFilter compiled = filter::DisplayFilter::compile(expression);
        std::unique_ptr<filter::FrameRecordCursor> records;
        if (compiled.readsFrameRecords()) {
            if (analysis->inputs.size() != 1) {
                matches.problem = "this filter reads each frame again from its file (frame.len, ip.ttl, TCP options): "
                                  "it needs a capture of one file";
                return matches;
            }
            records = std::make_unique<filter::FrameRecordCursor>(analysis->inputs.front().path);
        }
        const PacketIndex& packets = *results->packets();
        std::vector<size_t> positions;
        for (size_t position = 0; position < packets.size(); ++position) {
            if (position % kStopCheckPackets == 0 && *stop) {
                matches.stopped = true;  // a newer filter was applied: nobody waits for this one
                return matches;
            }
            const filter::FrameRecord* record = records ? records->seek(packets.frame(position)) : nullptr;
            if (compiled.matchesAt(*analysis->engine, position, record)) {
                positions.push_back(position);
            }
        }
        matches.positions = std::move(positions);
    } catch (const filter::DisplayFilterError& error) {
        matches.problem = error.what();
    } catch (const CaptureError& error) {
        matches.problem = error.what();
    }
    return matches;
}

void CapturePacketsPanel::applyFilter(const QString& expression) {
    if (filter_->text() != expression) {
        const QSignalBlocker quiet(filter_);
        filter_->setText(expression);
    }
    // A filter still running is left to stop on its own (it looks at its flag every few thousand
    // packets): on a big capture waiting for it would hold the window.
    *stop_ = true;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    applied_ = expression.trimmed();
    if (applied_.isEmpty()) {
        model_.setMatches(std::nullopt);
        status_->setStyleSheet({});
        showCount();
        emit filtered();
        return;
    }
    status_->setStyleSheet({});
    status_->setText(tr("Filtering..."));
    watcher_.setFuture(QtConcurrent::run(&CapturePacketsPanel::match, model_.results(), applied_.toStdString(),
                                         std::shared_ptr<const std::atomic<bool>>(stop_)));
}

void CapturePacketsPanel::showMatches() {
    Matches matches = watcher_.result();
    if (matches.stopped) {
        return;  // what replaced it is shown (an empty filter at once, another by its own run)
    }
    if (!matches.problem.empty()) {
        status_->setStyleSheet(QStringLiteral("color: #b00020"));
        status_->setText(QString::fromStdString(matches.problem));
    } else {
        status_->setStyleSheet({});
        model_.setMatches(std::move(matches.positions));
        showCount();
    }
    emit filtered();
}

void CapturePacketsPanel::showCount() {
    const ResultsPtr& results = model_.results();
    const PacketIndex* packets = results ? results->packets() : nullptr;
    const qsizetype all = packets != nullptr ? static_cast<qsizetype>(packets->size()) : 0;
    if (applied_.isEmpty()) {
        status_->setText(tr("%Ln TCP packets", nullptr, all));
    } else {
        status_->setText(tr("%1 of %2 TCP packets match %3").arg(model_.rowCount()).arg(all).arg(applied_));
    }
}

void CapturePacketsPanel::focusFilter() {
    filter_->setFocus();
    filter_->selectAll();
}

void CapturePacketsPanel::selectFrame(uint32_t frame) {
    const ResultsPtr& results = model_.results();
    if (!results || results->packets() == nullptr) {
        return;
    }
    const size_t position = results->packets()->positionOfFrame(frame);
    const int row = model_.rowOfPosition(position);
    if (row < 0) {
        return;
    }
    selecting_ = true;
    view_->selectRow(row);
    view_->scrollTo(model_.index(row, 0), QAbstractItemView::PositionAtCenter);
    selecting_ = false;
}

}  // namespace tcpscope::ui
