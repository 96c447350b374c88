#pragma once
#include <QObject>

#include "notes/note_store.hpp"
#include "notes/notes_model.hpp"
#include "present/traced_call.hpp"

class QMainWindow;
class QTabWidget;
class QTableView;
class QTreeView;

namespace tcpscope::ui {

class MainWindow;
class NotesPanel;
class SequenceView;
class TimelineView;

/// Notes in the main window: the Notes dock, the Notes menu ("Add note..." on the selected
/// packet, finding or the time shown; a pcapng copy with the notes), "Add note..." in the
/// context menus of the packets table and the findings tree, the notes drawn in the timeline
/// and the ladder, and a double-click on a note showing its target. Reads the window's parts by
/// their object names, so the window only creates it.
class NotesController : public QObject {
    Q_OBJECT

public:
    explicit NotesController(MainWindow* window);

    [[nodiscard]] NoteStore& store() { return store_; }
    [[nodiscard]] NotesPanel* panel() const { return panel_; }
    /// Shows what note `id` is pinned to: its packet, finding or time.
    void showTarget(uint64_t id);
    /// Asks for a text and pins it to `target` (nothing if the dialog is cancelled).
    void askAndAdd(const NoteTarget& target);

    // The targets of the current selection, if any.
    [[nodiscard]] std::optional<NoteTarget> selectedPacketTarget() const;
    [[nodiscard]] std::optional<NoteTarget> selectedFindingTarget() const;
    [[nodiscard]] std::optional<NoteTarget> shownSpanTarget() const;

private:
    void buildMenu();
    void buildContextMenus();
    // "Add note..." in the context menus of the timeline (a system call, the selected span) and the ladder.
    void buildViewMenus();
    [[nodiscard]] std::optional<NoteTarget> syscallTarget(const SyscallLocation& location) const;
    // Shows a system call note's call: its lane and time in the timeline, its time in the ladder.
    void showSyscall(const SyscallNoteTarget& call);
    // Shows [startNs, endNs] in the timeline with a margin either side.
    void showTime(int64_t startNs, int64_t endNs);
    void onResults(bool complete);
    void writeCopy();

    MainWindow* window_;
    NoteStore store_;
    NotesModel model_;
    NotesPanel* panel_ = nullptr;
    TimelineView* timeline_ = nullptr;
    SequenceView* sequence_ = nullptr;
    QTableView* packets_ = nullptr;
    QTreeView* findings_ = nullptr;
    QTabWidget* tabs_ = nullptr;
};

}  // namespace tcpscope::ui
