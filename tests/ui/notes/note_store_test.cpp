// The GUI's notes: the store saves the sidecar beside the capture on every change (never the
// capture), reads it back, keeps working over a corrupt sidecar without overwriting it, and the
// notes table (checked by QAbstractItemModelTester) edits and lists them with the capture's comments.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "analysis/capture_analysis.hpp"
#include "annotate/capture_comments.hpp"
#include "annotate/note_sidecar.hpp"
#include "annotate/pcapng_copy.hpp"
#include "notes/note_store.hpp"
#include "notes/notes_model.hpp"
#include "notes/notes_panel.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
namespace fs = std::filesystem;

namespace {

fs::path freshFolder(const std::string& name) {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-ui-notes-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    return folder;
}

std::string bytesOf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ResultsPtr analyse(const fs::path& capture) { return AnalysisResults::complete(analyzeCaptures({capture.string()}, {})); }

fs::path copyOfSample(const fs::path& folder) {
    const fs::path capture = folder / "proxy-nagle.pcap";
    fs::copy_file(fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap", capture);
    return capture;
}

}  // namespace

TEST_CASE("the note store saves every change in the sidecar and reads it back - the capture is untouched") {
    const fs::path folder = freshFolder("store");
    const fs::path capture = copyOfSample(folder);
    const std::string captureBytes = bytesOf(capture);
    const ResultsPtr results = analyse(capture);
    const CaptureAnalysis& analysis = *results->analysis();

    NoteStore store;
    QSignalSpy changed(&store, &NoteStore::changed);
    QSignalSpy failed(&store, &NoteStore::saveFailed);
    store.open(results);
    CHECK(store.notes().empty());
    const uint64_t onPacket = store.add(packetNoteTarget(*analysis.engine, analysis.inputs, 12), "held by Nagle");
    const uint64_t onSpan = store.add(SpanNoteTarget{results->firstTsNs(), results->firstTsNs() + 40'000'000}, "idle");
    REQUIRE(store.edit(onSpan, "40 ms idle"));
    CHECK(changed.count() == 4);  // open, add, add, edit
    CHECK(failed.isEmpty());
    REQUIRE(store.pins()->size() == 2);
    CHECK(store.pins()->front().span);  // sorted by time: the span starts at the first frame

    const auto saved = readNoteSidecar(noteSidecarPath(capture.string()));
    REQUIRE(saved.has_value());
    REQUIRE(saved->notes.size() == 2);
    CHECK(saved->notes[1].text == "40 ms idle");
    CHECK(saved->captures == std::vector<std::string>{"proxy-nagle.pcap"});

    NoteStore reopened;
    reopened.open(results);
    REQUIRE(reopened.notes().size() == 2);
    CHECK(reopened.find(onPacket)->text == "held by Nagle");
    REQUIRE(reopened.remove(onPacket));
    CHECK(readNoteSidecar(noteSidecarPath(capture.string()))->notes.size() == 1);
    CHECK(bytesOf(capture) == captureBytes);
    fs::remove_all(folder);
}

TEST_CASE("a corrupt sidecar is reported in one line, the capture stays usable and the file is not overwritten") {
    const fs::path folder = freshFolder("corrupt");
    const fs::path capture = copyOfSample(folder);
    const fs::path sidecar = noteSidecarPath(capture.string());
    std::ofstream(sidecar) << "{\"format\": \"tcpscope-notes\", \"version\": 99, \"notes\": []}";
    const std::string sidecarBytes = bytesOf(sidecar);

    NoteStore store;
    QSignalSpy failed(&store, &NoteStore::saveFailed);
    store.open(analyse(capture));
    CHECK(store.isOpen());
    CHECK(store.problem().contains("version 99 is newer"));
    CHECK_FALSE(store.problem().contains('\n'));
    CHECK(store.add(SpanNoteTarget{1, 2}, "kept in memory") != 0);
    REQUIRE(failed.count() == 1);
    CHECK(failed.front().front().toString().contains("move it away"));
    CHECK(bytesOf(sidecar) == sidecarBytes);
    fs::remove_all(folder);
}

TEST_CASE("the notes table lists user notes and the capture's comments - only user notes are editable") {
    const fs::path folder = freshFolder("model");
    const fs::path capture = copyOfSample(folder);
    NoteSet original;
    original.add(PacketNoteTarget{7, "proxy-nagle.pcap", 0}, "a comment written into the capture", 0);
    const fs::path commented = folder / "commented.pcapng";
    writePcapngWithNotes({capture.string()}, original.notes(), commented.string());

    NoteStore store;
    NotesModel model(store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const ResultsPtr results = analyse(commented);
    store.open(results);
    model.setOriginNs(results->firstTsNs());
    REQUIRE(model.rowCount() == 1);
    const QModelIndex comment = model.index(0, NotesModel::TextColumn);
    CHECK(comment.data().toString() == "a comment written into the capture");
    CHECK_FALSE(model.flags(comment) & Qt::ItemIsEditable);
    CHECK(model.index(0, NotesModel::TargetColumn).data().toString() == "frame 7");
    CHECK_FALSE(model.setData(comment, "changed"));

    const uint64_t id = store.add(SpanNoteTarget{results->firstTsNs() + 500'000'000, results->firstTsNs() + 600'000'000},
                                  "half a second in");
    REQUIRE(model.rowCount() == 2);
    const int row = model.rowOfNote(id);
    CHECK(model.index(row, NotesModel::TimeColumn).data().toString() == "0.500000");
    const QModelIndex text = model.index(row, NotesModel::TextColumn);
    REQUIRE(model.flags(text) & Qt::ItemIsEditable);
    REQUIRE(model.setData(text, "edited in place"));
    CHECK(store.find(id)->text == "edited in place");
    CHECK(readNoteSidecar(noteSidecarPath(commented.string()))->notes.at(0).text == "edited in place");

    NotesPanel panel(store, model);
    QSignalSpy activated(&panel, &NotesPanel::noteActivated);
    panel.selectNote(id);
    CHECK(panel.selectedNote() == id);
    emit panel.table()->activated(model.index(row, NotesModel::TargetColumn));
    REQUIRE(activated.count() == 1);
    CHECK(activated.front().front().toULongLong() == id);
    fs::remove_all(folder);
}

TEST_CASE("notes on a bundled sample go into the user's notes folder, never beside the sample") {
    const fs::path sample = fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap";
    const fs::path beside = noteSidecarPath(sample.string());
    REQUIRE_FALSE(fs::exists(beside));
    const fs::path userNotes = freshFolder("user-data") / "notes";  // made when the first note is saved
    NotePlacement placement{userNotes.string(), {TCPSCOPE_SOURCE_DIR "/samples"}};
    const ResultsPtr results = analyse(sample);

    NoteStore store;
    store.setPlacement(placement);
    QSignalSpy failed(&store, &NoteStore::saveFailed);
    store.open(results);
    REQUIRE(store.add(SpanNoteTarget{results->firstTsNs(), results->firstTsNs() + 1'000'000}, "first write") != 0);
    CHECK(failed.isEmpty());
    CHECK_FALSE(fs::exists(beside));
    const fs::path saved = store.sidecarPath().toStdString();
    CHECK(saved.parent_path() == userNotes);
    CHECK(saved.filename().string().rfind("proxy-nagle.pcap-", 0) == 0);
    REQUIRE(readNoteSidecar(saved.string()).has_value());

    NoteStore reopened;
    reopened.setPlacement(placement);
    reopened.open(results);
    REQUIRE(reopened.notes().size() == 1);
    CHECK(reopened.notes().userNotes().front().text == "first write");

    // A copy of the sample elsewhere is the user's own: its notes go beside it, as before.
    const fs::path folder = freshFolder("own-copy");
    const fs::path copy = copyOfSample(folder);
    std::string shipped;
    CHECK(placedSidecarPath(copy.string(), placement, shipped) == noteSidecarPath(copy.string()));
    CHECK(shipped.empty());
    fs::remove_all(folder);
    fs::remove_all(userNotes.parent_path());
}
