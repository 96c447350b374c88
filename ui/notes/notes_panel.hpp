#pragma once
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QWidget>

#include "notes/notes_model.hpp"

namespace tcpscope::ui {

/// The Notes panel: every note of the open capture (what it is pinned to, when, its text), a line
/// about a sidecar that could not be read, and Edit/Delete for the user's notes. Double-click or
/// Enter on a note asks to show its target.
class NotesPanel : public QWidget {
    Q_OBJECT

public:
    NotesPanel(NoteStore& store, NotesModel& model, QWidget* parent = nullptr);

    [[nodiscard]] QTableView* table() const { return table_; }
    /// The id of the selected note, or 0.
    [[nodiscard]] uint64_t selectedNote() const;
    /// Selects note `id` in the list.
    void selectNote(uint64_t id);
    /// Asks for a new text of the selected user note.
    void editSelected();
    /// Removes the selected user note (after asking).
    void deleteSelected();

signals:
    /// The user asked to see what note `id` is pinned to.
    void noteActivated(quint64 id);

private:
    void updateState();

    NoteStore& store_;
    NotesModel& model_;
    QTableView* table_ = nullptr;
    QLabel* problem_ = nullptr;
    QPushButton* editButton_ = nullptr;
    QPushButton* deleteButton_ = nullptr;
};

}  // namespace tcpscope::ui
