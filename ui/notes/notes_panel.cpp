#include "notes/notes_panel.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QMessageBox>
#include <QVBoxLayout>

namespace tcpscope::ui {

NotesPanel::NotesPanel(NoteStore& store, NotesModel& model, QWidget* parent)
    : QWidget(parent), store_(store), model_(model) {
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("notesTable"));
    table_->setModel(&model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);

    problem_ = new QLabel(this);
    problem_->setWordWrap(true);
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    problem_->hide();

    editButton_ = new QPushButton(tr("&Edit..."), this);
    deleteButton_ = new QPushButton(tr("&Delete"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(editButton_);
    buttons->addWidget(deleteButton_);
    buttons->addStretch();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(problem_);
    layout->addWidget(table_);
    layout->addLayout(buttons);

    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() != NotesModel::TextColumn || !(model_.flags(index) & Qt::ItemIsEditable)) {
            emit noteActivated(index.data(NotesModel::NoteIdRole).toULongLong());
        }
    });
    connect(table_, &QTableView::activated, this,
            [this](const QModelIndex& index) { emit noteActivated(index.data(NotesModel::NoteIdRole).toULongLong()); });
    connect(editButton_, &QPushButton::clicked, this, &NotesPanel::editSelected);
    connect(deleteButton_, &QPushButton::clicked, this, &NotesPanel::deleteSelected);
    connect(&store_, &NoteStore::changed, this, &NotesPanel::updateState);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &NotesPanel::updateState);
    connect(&model_, &QAbstractItemModel::modelReset, this, &NotesPanel::updateState);
    updateState();
}

uint64_t NotesPanel::selectedNote() const {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    return rows.isEmpty() ? 0 : rows.front().data(NotesModel::NoteIdRole).toULongLong();
}

void NotesPanel::selectNote(uint64_t id) {
    const int row = model_.rowOfNote(id);
    if (row >= 0) {
        table_->selectRow(row);
        table_->scrollTo(model_.index(row, 0));
    }
}

void NotesPanel::editSelected() {
    const Note* note = store_.find(selectedNote());
    if (note == nullptr || note->readOnly()) {
        return;
    }
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        this, tr("Edit note"), tr("Note on %1:").arg(QString::fromStdString(describeNoteTarget(note->target))),
        QString::fromStdString(note->text), &ok);
    if (ok && !text.trimmed().isEmpty()) {
        store_.edit(note->id, text);
    }
}

void NotesPanel::deleteSelected() {
    const Note* note = store_.find(selectedNote());
    if (note == nullptr || note->readOnly()) {
        return;
    }
    const auto answer = QMessageBox::question(this, tr("Delete note"),
                                              tr("Delete the note \"%1\"?").arg(QString::fromStdString(note->text)));
    if (answer == QMessageBox::Yes) {
        store_.remove(note->id);
    }
}

void NotesPanel::updateState() {
    problem_->setText(store_.problem());
    problem_->setVisible(!store_.problem().isEmpty());
    const Note* note = store_.find(selectedNote());
    const bool editable = note != nullptr && !note->readOnly();
    editButton_->setEnabled(editable);
    deleteButton_->setEnabled(editable);
}

}  // namespace tcpscope::ui
