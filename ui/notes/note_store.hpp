#pragma once
#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "annotate/capture_notes.hpp"
#include "loading/analysis_results.hpp"
#include "views/note_pins.hpp"

namespace tcpscope::ui {

/// The notes of the open capture for the GUI: owns the NoteSet, saves the sidecar after every
/// change (never the capture), and tells the panel and the views when notes change.
class NoteStore : public QObject {
    Q_OBJECT

public:
    explicit NoteStore(QObject* parent = nullptr);

    /// Reads the notes of the captures of complete `results` (the sidecar of the first file, and
    /// the files' own comments). A sidecar that cannot be read is reported by problem().
    void open(const ResultsPtr& results);
    /// Where notes go (defaultNotePlacement() unless set): a bundled sample's, or those of a capture in
    /// a folder the user cannot write, into the user's data folder instead of beside the capture.
    void setPlacement(NotePlacement placement) { placement_ = std::move(placement); }
    /// DATA/tcpscope/notes (DATA: QStandardPaths::GenericDataLocation, ~/.local/share), and the
    /// bundled samples' folders.
    static NotePlacement defaultNotePlacement();
    /// Forgets every note (no capture open).
    void close();

    /// Adds a note and saves; returns its id (0 if nothing is open).
    uint64_t add(const NoteTarget& target, const QString& text);
    /// Changes a user note's text and saves; false for a comment from the capture or an unknown id.
    bool edit(uint64_t id, const QString& text);
    /// Removes a user note and saves; false for a comment from the capture or an unknown id.
    bool remove(uint64_t id);

    [[nodiscard]] bool isOpen() const { return open_; }
    [[nodiscard]] const NoteSet& notes() const { return notes_.notes; }
    [[nodiscard]] const Note* find(uint64_t id) const { return notes_.notes.find(id); }
    /// The notes as the views draw them.
    [[nodiscard]] const NotePins& pins() const { return pins_; }
    [[nodiscard]] QString sidecarPath() const { return QString::fromStdString(notes_.sidecarPath); }
    /// The captures the notes belong to (as given to the analysis).
    [[nodiscard]] const std::vector<std::string>& capturePaths() const { return capturePaths_; }
    /// A one-line problem with the sidecar (unreadable, or made for other captures), or empty.
    [[nodiscard]] QString problem() const { return problem_; }

signals:
    /// Notes were added, edited, removed, or another capture was opened.
    void changed();
    /// Saving failed: one line naming the file and the reason (the notes stay in memory).
    void saveFailed(const QString& message);

private:
    void changedAndSave();

    CaptureNotes notes_;
    NotePlacement placement_ = defaultNotePlacement();
    std::vector<std::string> capturePaths_;
    NotePins pins_;
    QString problem_;
    bool open_ = false;
};

}  // namespace tcpscope::ui
