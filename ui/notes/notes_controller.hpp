#pragma once
#include <QObject>

#include <functional>

#include "loading/analysis_results.hpp"
#include "notes/note_store.hpp"
#include "notes/notes_model.hpp"
#include "present/traced_call.hpp"

class QMainWindow;
class QMenu;
class QTabWidget;
class QTableView;
class QTreeView;

namespace tcpscope::ui {

class NotesPanel;
class SequenceView;
class TimelineView;

/// The views of the main window that notes are pinned to and drawn in.
struct NotedViews {
    TimelineView* timeline;
    SequenceView* sequence;
    QTableView* packets;
    QTreeView* findings;
    QTabWidget* tabs;  ///< the tabs of the timeline and the sequence diagram, to show the one a note is in
};

/// What the notes need of the window they live in: its dock area, menus and status bar, the results
/// shown, the finding selected and a way to select one.
struct NotesWindow {
    QMainWindow* window;
    std::function<ResultsPtr()> results;
    std::function<const Finding*()> currentFinding;
    std::function<void(uint32_t id)> selectFinding;
};

/// Notes in the main window: the Notes dock, the Notes menu ("Add note..." on the selected
/// packet, finding or the time shown; a pcapng copy with the notes), "Add note..." in the
/// context menus of the packets table and the findings tree, the notes drawn in the timeline
/// and the sequence diagram, and a double-click on a note showing its target. The window creates it with
/// its views, after them, and calls onResults() when it shows results.
class NotesController : public QObject {
    Q_OBJECT

public:
    NotesController(NotesWindow window, const NotedViews& views);

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

    /// The window shows results (`complete`: the whole capture is read): opens their notes.
    void onResults(bool complete);

private:
    void buildMenu();
    void buildContextMenus();
    // "Add note..." in the context menus of the timeline (a system call, the selected span) and the sequence diagram.
    void buildViewMenus();
    [[nodiscard]] std::optional<NoteTarget> syscallTarget(const SyscallLocation& location) const;
    // Shows a system call note's call: its lane and time in the timeline, its time in the sequence diagram.
    void showSyscall(const SyscallNoteTarget& call);
    // Shows [startNs, endNs] in the timeline with a margin either side.
    void showTime(int64_t startNs, int64_t endNs);
    void writeCopy();

    NotesWindow host_;
    QMainWindow* window_;
    NoteStore store_;
    NotesModel model_;
    NotesPanel* panel_ = nullptr;
    TimelineView* timeline_;
    SequenceView* sequence_;
    QTableView* packets_;
    QTreeView* findings_;
    QTabWidget* tabs_;
    QMenu* menu_ = nullptr;  // the Notes menu (buildMenu)
};

}  // namespace tcpscope::ui
