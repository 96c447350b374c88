#include "notes/notes_model.hpp"

#include <QFont>

namespace tcpscope::ui {

NotesModel::NotesModel(NoteStore& store, QObject* parent) : QAbstractTableModel(parent), store_(store) {
    connect(&store_, &NoteStore::changed, this, &NotesModel::reload);
}

void NotesModel::setOriginNs(int64_t originNs) {
    originNs_ = originNs;
    if (rowCount() > 0) {
        emit dataChanged(index(0, TimeColumn), index(rowCount() - 1, TimeColumn));
    }
}

void NotesModel::reload() {
    if (editingInPlace_) {
        return;
    }
    beginResetModel();
    endResetModel();
}

int NotesModel::rowOfNote(uint64_t id) const {
    const auto& notes = store_.notes().notes();
    for (size_t row = 0; row < notes.size(); ++row) {
        if (notes[row].id == id) {
            return static_cast<int>(row);
        }
    }
    return -1;
}

int NotesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(store_.notes().size());
}

int NotesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

const Note* NotesModel::noteAt(const QModelIndex& index) const {
    const auto& notes = store_.notes().notes();
    if (!index.isValid() || index.row() < 0 || static_cast<size_t>(index.row()) >= notes.size()) {
        return nullptr;
    }
    return &notes[static_cast<size_t>(index.row())];
}

QVariant NotesModel::data(const QModelIndex& index, int role) const {
    const Note* note = noteAt(index);
    if (note == nullptr) {
        return {};
    }
    if (role == NoteIdRole) {
        return QVariant::fromValue<qulonglong>(note->id);
    }
    if (role == Qt::FontRole && note->readOnly()) {
        QFont italic;
        italic.setItalic(true);
        return italic;
    }
    if (role == Qt::ToolTipRole) {
        const QString text = QString::fromStdString(note->text);
        return note->readOnly() ? tr("%1\n(comment from the capture file, read-only)").arg(text) : text;
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole) {
        return {};
    }
    switch (index.column()) {
        case TargetColumn: return QString::fromStdString(describeNoteTarget(note->target));
        case TimeColumn: {
            const int64_t anchorNs = noteAnchorNs(note->target);
            if (anchorNs == 0) {
                return QString();
            }
            return QString::number(static_cast<double>(anchorNs - originNs_) / 1e9, 'f', 6);
        }
        case TextColumn: return QString::fromStdString(note->text);
        default: return {};
    }
}

QVariant NotesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case TargetColumn: return tr("Pinned to");
        case TimeColumn: return tr("Time (s)");
        case TextColumn: return tr("Note");
        default: return {};
    }
}

Qt::ItemFlags NotesModel::flags(const QModelIndex& index) const {
    const Note* note = noteAt(index);
    if (note == nullptr) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == TextColumn && !note->readOnly()) {
        flags |= Qt::ItemIsEditable;
    }
    return flags;
}

bool NotesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    const Note* note = noteAt(index);
    if (note == nullptr || role != Qt::EditRole || index.column() != TextColumn || note->readOnly()) {
        return false;
    }
    editingInPlace_ = true;
    const bool edited = store_.edit(note->id, value.toString());
    editingInPlace_ = false;
    if (edited) {
        emit dataChanged(index, index);
    }
    return edited;
}

}  // namespace tcpscope::ui
