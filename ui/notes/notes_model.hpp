#pragma once
#include <QAbstractTableModel>

#include "notes/note_store.hpp"

namespace tcpscope::ui {

/// The notes of a NoteStore as a table: what a note is pinned to, when (seconds from the first
/// frame), and its text. The text of a user note is editable in place; comments from the capture
/// are read-only and shown in italics.
class NotesModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { TargetColumn, TimeColumn, TextColumn, ColumnCount };
    /// Role giving the note's id.
    static constexpr int NoteIdRole = Qt::UserRole + 1;

    explicit NotesModel(NoteStore& store, QObject* parent = nullptr);

    /// The capture time shown as 0 in the time column.
    void setOriginNs(int64_t originNs);
    /// The row of note `id`, or -1.
    [[nodiscard]] int rowOfNote(uint64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

private:
    void reload();
    [[nodiscard]] const Note* noteAt(const QModelIndex& index) const;

    NoteStore& store_;
    int64_t originNs_ = 0;
    bool editingInPlace_ = false;  // the store's change signal of an in-place edit is not a reset
};

}  // namespace tcpscope::ui
