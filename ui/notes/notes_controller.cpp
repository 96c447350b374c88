#include "notes/notes_controller.hpp"

#include <QDockWidget>
#include <QFileDialog>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <algorithm>
#include <utility>

#include "annotate/capture_comments.hpp"
#include "annotate/finding_note_target.hpp"
#include "annotate/pcapng_copy.hpp"
#include "models/findings_model.hpp"
#include "models/packets_model.hpp"
#include "notes/notes_panel.hpp"
#include "present/syscall_lanes.hpp"
#include "present/syscall_notes.hpp"
#include "sequence/sequence_view.hpp"
#include "timeline/timeline_view.hpp"

namespace tcpscope::ui {

NotesController::NotesController(NotesWindow window, const NotedViews& views)
    : QObject(window.window),
      host_(std::move(window)),
      window_(host_.window),
      model_(store_),
      timeline_(views.timeline),
      sequence_(views.sequence),
      packets_(views.packets),
      findings_(views.findings),
      tabs_(views.tabs) {

    panel_ = new NotesPanel(store_, model_);
    auto* dock = new QDockWidget(tr("Notes"), window_);
    dock->setObjectName(QStringLiteral("notesDock"));
    dock->setWidget(panel_);
    window_->addDockWidget(Qt::BottomDockWidgetArea, dock);
    // A few rows tall at first, so that the diagrams keep the height (a saved layout overrides it).
    window_->resizeDocks({dock}, {dock->fontMetrics().height() * 8}, Qt::Vertical);
    // No room taken until a note exists: the first one shows the dock (Notes > Notes shows it any time).
    dock->hide();
    connect(&store_, &NoteStore::changed, dock, [this, dock] {
        if (!store_.notes().empty()) {
            dock->show();
        }
    });

    connect(panel_, &NotesPanel::noteActivated, this, [this](quint64 id) { showTarget(id); });
    connect(&store_, &NoteStore::changed, this, [this] {
        const ResultsPtr results = host_.results();
        const NotePins pins = placeSyscallPins(store_.pins(), results ? results->alignment() : nullptr);
        if (timeline_ != nullptr) {
            timeline_->setNotePins(pins);
        }
        if (sequence_ != nullptr) {
            sequence_->setNotePins(pins);
        }
    });
    connect(&store_, &NoteStore::saveFailed, this,
            [this](const QString& message) { window_->statusBar()->showMessage(message, 15000); });
    buildMenu();
    buildContextMenus();
    buildViewMenus();
    menu_->addAction(dock->toggleViewAction());
}

void NotesController::onResults(bool complete) {
    if (!complete) {
        if (store_.isOpen()) {
            store_.close();  // another capture is loading
        }
        return;
    }
    store_.open(host_.results());
    model_.setOriginNs(host_.results() ? host_.results()->firstTsNs() : 0);
    if (!store_.problem().isEmpty()) {
        window_->statusBar()->showMessage(store_.problem(), 15000);
    }
}

void NotesController::buildMenu() {
    QMenu* menu = window_->menuBar()->addMenu(tr("&Notes"));
    menu->setObjectName(QStringLiteral("notesMenu"));
    menu_ = menu;
    const auto addFor = [this, menu](const QString& text, auto target) {
        QAction* action = menu->addAction(text, this, [this, target] {
            if (const auto chosen = (this->*target)()) {
                askAndAdd(*chosen);
            }
        });
        action->setEnabled(false);
        connect(&store_, &NoteStore::changed, action, [this, action] { action->setEnabled(store_.isOpen()); });
        return action;
    };
    addFor(tr("Add note on the selected &packet..."), &NotesController::selectedPacketTarget)
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    addFor(tr("Add note on the selected &finding..."), &NotesController::selectedFindingTarget);
    addFor(tr("Add note on the &time shown in the timeline..."), &NotesController::shownSpanTarget);
    menu->addSeparator();
    QAction* copy = menu->addAction(tr("Save a pcapng &copy with the notes..."), this, &NotesController::writeCopy);
    copy->setEnabled(false);
    connect(&store_, &NoteStore::changed, copy, [this, copy] { copy->setEnabled(store_.isOpen()); });
    menu->addSeparator();
}

void NotesController::buildContextMenus() {
    const auto install = [this](QAbstractItemView* view, auto target) {
        if (view == nullptr) {
            return;
        }
        view->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(view, &QWidget::customContextMenuRequested, this, [this, view, target](const QPoint& position) {
            const auto chosen = (this->*target)();
            if (!chosen) {
                return;
            }
            QMenu menu;
            menu.addAction(tr("Add note..."), this, [this, chosen] { askAndAdd(*chosen); });
            menu.exec(view->viewport()->mapToGlobal(position));
        });
    };
    install(packets_, &NotesController::selectedPacketTarget);
    install(findings_, &NotesController::selectedFindingTarget);
}

void NotesController::buildViewMenus() {
    if (timeline_ != nullptr) {
        connect(timeline_, &TimelineView::contextMenuAboutToShow, this,
                [this](QMenu* menu, const TimelineContext& context) {
                    if (!store_.isOpen()) {
                        return;
                    }
                    if (context.syscall) {
                        if (const auto target = syscallTarget(*context.syscall)) {
                            menu->addAction(tr("Add note..."), this, [this, target] { askAndAdd(*target); });
                        }
                    }
                    if (context.selection) {
                        const NoteTarget span = SpanNoteTarget{context.selection->startNs, context.selection->endNs};
                        menu->addAction(tr("Add note on this span..."), this, [this, span] { askAndAdd(span); });
                    }
                });
    }
    if (sequence_ != nullptr) {
        connect(sequence_, &SequenceView::contextMenuAboutToShow, this,
                [this](QMenu* menu, const SequenceContext& context) {
                    if (!store_.isOpen() || context.syscall == nullptr || !context.syscall->location) {
                        return;
                    }
                    if (const auto target = syscallTarget(*context.syscall->location)) {
                        menu->addAction(tr("Add note..."), this, [this, target] { askAndAdd(*target); });
                    }
                });
    }
}

std::optional<NoteTarget> NotesController::syscallTarget(const SyscallLocation& location) const {
    const ResultsPtr results = host_.results();
    if (!results || results->alignment() == nullptr) {
        return std::nullopt;
    }
    return syscallNoteTarget(*results->alignment(), location);
}

std::optional<NoteTarget> NotesController::selectedPacketTarget() const {
    const ResultsPtr results = host_.results();
    if (packets_ == nullptr || !results || results->analysis() == nullptr || !packets_->currentIndex().isValid()) {
        return std::nullopt;
    }
    const QVariant position = packets_->currentIndex().data(PacketsModel::PacketIndexRole);
    const CaptureAnalysis& analysis = *results->analysis();
    const PacketIndex& index = analysis.engine->packets();
    if (!position.isValid() || position.toULongLong() >= index.size()) {
        return std::nullopt;
    }
    return packetNoteTarget(*analysis.engine, analysis.inputs, index.frame(position.toULongLong()));
}

std::optional<NoteTarget> NotesController::selectedFindingTarget() const {
    const Finding* finding = host_.currentFinding();
    if (finding == nullptr || !host_.results()) {
        return std::nullopt;
    }
    return findingNoteTarget(*finding, host_.results()->connections());
}

std::optional<NoteTarget> NotesController::shownSpanTarget() const {
    if (timeline_ == nullptr || !host_.results()) {
        return std::nullopt;
    }
    const TimeRange range = timeline_->visibleRange();
    return SpanNoteTarget{range.startNs, range.endNs};
}

void NotesController::askAndAdd(const NoteTarget& target) {
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        window_, tr("Add note"), tr("Note on %1:").arg(QString::fromStdString(describeNoteTarget(target))), QString(),
        &ok);
    if (ok && !text.trimmed().isEmpty()) {
        panel_->selectNote(store_.add(target, text));
    }
}

void NotesController::showTarget(uint64_t id) {
    const Note* note = store_.find(id);
    const ResultsPtr results = host_.results();
    if (note == nullptr || !results || results->analysis() == nullptr) {
        return;
    }
    if (const auto* packet = std::get_if<PacketNoteTarget>(&note->target)) {
        const PacketIndex& index = results->analysis()->engine->packets();
        const size_t position = index.positionOfFrame(packet->frame);
        if (position < index.size() && timeline_ != nullptr) {
            // As a click on the packet's mark: packet table, details, sequence diagram and timeline follow.
            emit timeline_->packetClicked(position);
        }
        return;
    }
    if (const auto* finding = std::get_if<FindingNoteTarget>(&note->target)) {
        for (const Finding& candidate : results->findings()) {
            if (noteTargetsFinding(*finding, candidate, results->connections())) {
                host_.selectFinding(candidate.id);
                return;
            }
        }
        window_->statusBar()->showMessage(tr("The finding of this note is not in this analysis"), 10000);
        return;
    }
    if (const auto* call = std::get_if<SyscallNoteTarget>(&note->target)) {
        showSyscall(*call);
        return;
    }
    // A span: show its time in the timeline, with a margin either side.
    showTime(noteAnchorNs(note->target), noteEndNs(note->target));
}

void NotesController::showSyscall(const SyscallNoteTarget& call) {
    const ResultsPtr results = host_.results();
    const StraceAlignment* alignment = results->alignment();
    const auto location = alignment != nullptr ? findNoteSyscall(*alignment, call.logFile, call.line) : std::nullopt;
    if (!location) {
        window_->statusBar()->showMessage(
            tr("%1:%2 is not in the strace logs opened; showing the time it had")
                .arg(QString::fromStdString(call.logFile))
                .arg(call.line),
            10000);
        showTime(call.tsNs, call.tsNs);
        return;
    }
    const int64_t tsNs = syscallNoteTarget(*alignment, *location).tsNs;
    // Its socket's connection: the timeline shows its lane, the sequence diagram its lifeline at that time.
    if (const std::optional<uint32_t> index = syscallLaneSocketOf(*alignment, *location)) {
        const uint32_t connection = alignment->sockets[*index].connection;
        if (timeline_ != nullptr) {
            timeline_->scrollToConnection(connection);
        }
        const SequenceDiagram* shown = sequence_ != nullptr ? sequence_->sequenceLayout().diagram() : nullptr;
        if (shown != nullptr && std::find(shown->connections().begin(), shown->connections().end(), connection) !=
                                    shown->connections().end()) {
            sequence_->scrollToTime(tsNs);
        }
    }
    showTime(tsNs, tsNs);
}

void NotesController::showTime(int64_t startNs, int64_t endNs) {
    const int64_t marginNs = std::max<int64_t>((endNs - startNs) / 5, 5'000'000);
    if (timeline_ != nullptr) {
        timeline_->zoomToRange({startNs - marginNs, endNs + marginNs});
        if (tabs_ != nullptr) {
            tabs_->setCurrentWidget(timeline_);
        }
    }
}

void NotesController::writeCopy() {
    if (store_.capturePaths().empty()) {
        return;
    }
    const QString first = QString::fromStdString(store_.capturePaths().front());
    QString suggested = first;
    suggested.replace(QRegularExpression(QStringLiteral("\\.(pcapng|pcap)(\\.gz|\\.zst)?$")), QString());
    const QString out = QFileDialog::getSaveFileName(window_, tr("Save a pcapng copy with the notes"),
                                                     suggested + QStringLiteral("-notes.pcapng"),
                                                     tr("pcapng captures (*.pcapng)"));
    if (out.isEmpty()) {
        return;
    }
    try {
        const PcapngCopyResult result = writePcapngWithNotes(store_.capturePaths(), store_.notes().notes(), out.toStdString());
        window_->statusBar()->showMessage(tr("Wrote %1: %2 packets, %3 notes as packet comments")
                                              .arg(out)
                                              .arg(result.packets)
                                              .arg(result.notesWritten),
                                          15000);
    } catch (const std::exception& error) {
        QMessageBox::warning(window_, tr("Copy not written"), QString::fromUtf8(error.what()));
    }
}

}  // namespace tcpscope::ui
