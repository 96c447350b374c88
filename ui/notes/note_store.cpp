#include "notes/note_store.hpp"

#include <QStandardPaths>

#include <chrono>

#include "annotate/note_sidecar.hpp"
#include "loading/bundled_samples.hpp"

namespace tcpscope::ui {

namespace {

int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

NotePlacement NoteStore::defaultNotePlacement() {
    NotePlacement placement;
    placement.userNotesDir =
        (QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/tcpscope/notes"))
            .toStdString();
    for (const QString& dir : bundledSampleDirs()) {
        placement.sharedDirs.push_back(dir.toStdString());
    }
    return placement;
}

NoteStore::NoteStore(QObject* parent) : QObject(parent), pins_(std::make_shared<std::vector<NotePin>>()) {}

void NoteStore::open(const ResultsPtr& results) {
    const CaptureAnalysis* analysis = results ? results->analysis() : nullptr;
    if (analysis == nullptr) {
        close();
        return;
    }
    capturePaths_.clear();
    for (const InputSummary& input : analysis->inputs) {
        capturePaths_.push_back(input.path);
    }
    notes_ = openCaptureNotes(capturePaths_, *analysis->engine, analysis->inputs, placement_);
    problem_.clear();
    if (notes_.sidecarProblem) {
        problem_ = QString::fromStdString(notes_.sidecarProblem->describe());
    } else if (notes_.capturesMismatch) {
        problem_ = QString::fromStdString(*notes_.capturesMismatch);
    }
    open_ = true;
    pins_ = makeNotePins(notes_.notes);
    emit changed();
}

void NoteStore::close() {
    notes_ = CaptureNotes{};
    capturePaths_.clear();
    problem_.clear();
    open_ = false;
    pins_ = makeNotePins(notes_.notes);
    emit changed();
}

uint64_t NoteStore::add(const NoteTarget& target, const QString& text) {
    if (!open_) {
        return 0;
    }
    const uint64_t id = notes_.notes.add(target, text.toStdString(), nowNs());
    changedAndSave();
    return id;
}

bool NoteStore::edit(uint64_t id, const QString& text) {
    if (!notes_.notes.edit(id, text.toStdString())) {
        return false;
    }
    changedAndSave();
    return true;
}

bool NoteStore::remove(uint64_t id) {
    if (!notes_.notes.remove(id)) {
        return false;
    }
    changedAndSave();
    return true;
}

void NoteStore::changedAndSave() {
    pins_ = makeNotePins(notes_.notes);
    emit changed();
    try {
        saveCaptureNotes(notes_);
    } catch (const NoteFileError& error) {
        emit saveFailed(QString::fromUtf8(error.what()));
    }
}

}  // namespace tcpscope::ui
