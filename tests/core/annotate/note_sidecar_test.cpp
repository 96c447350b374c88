// The sidecar file: round trip of every target type, atomic replacement, and clear one-line errors
// for corrupt, foreign and newer files.
#include "annotate/note_sidecar.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "annotate/note_set.hpp"

using namespace tcpscope;

namespace {

std::filesystem::path freshFolder(const std::string& name) {
    const auto folder = std::filesystem::temp_directory_path() / ("tcpscope-notes-" + name + "-" +
                                                                  std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    return folder;
}

void writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

std::string readError(const std::string& path) {
    try {
        readNoteSidecar(path);
    } catch (const NoteFileError& error) {
        return error.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("the sidecar keeps every kind of note exactly") {
    const auto folder = freshFolder("roundtrip");
    const std::string path = noteSidecarPath((folder / "capture.pcap").string());
    CHECK(path.ends_with("capture.pcap.tcpscope-notes.json"));

    NoteSet notes;
    notes.add(PacketNoteTarget{17, "capture.pcap", 1'700'000'000'123'456'789}, "the held write", 1'700'000'100'000'000'001);
    notes.add(SyscallNoteTarget{"proxy.strace", 240, 1'700'000'000'200'000'000}, "sendto waits here", 2);
    notes.add(
        FindingNoteTarget{FindingKind::DelayedAckStall, "127.0.0.1:58562 -> 127.0.0.1:3307", 1'700'000'000'000'000'007},
        "Nagle: set TCP_NODELAY \"now\"\nsecond line, \xC3\xA9", 3);
    notes.add(SpanNoteTarget{1'700'000'000'000'000'000, 1'700'000'000'040'100'000}, "40 ms of nothing", 4);
    notes.setCaptureComments({PacketNoteTarget{3, "capture.pcap", 0}}, {"a capture comment is not saved"});

    writeNoteSidecar(path, NoteSidecar{{"capture.pcap"}, notes.notes()});
    const auto read = readNoteSidecar(path);
    REQUIRE(read.has_value());
    CHECK(read->captures == std::vector<std::string>{"capture.pcap"});
    const std::vector<Note> expected = notes.userNotes();
    REQUIRE(read->notes.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
        CHECK(read->notes[i].id == expected[i].id);
        CHECK(read->notes[i].text == expected[i].text);
        CHECK(read->notes[i].createdNs == expected[i].createdNs);
        CHECK(sameNoteTarget(read->notes[i].target, expected[i].target));
        CHECK(noteAnchorNs(read->notes[i].target) == noteAnchorNs(expected[i].target));
        CHECK(noteEndNs(read->notes[i].target) == noteEndNs(expected[i].target));
        CHECK_FALSE(read->notes[i].readOnly());
    }
    // No temporary file is left beside it.
    CHECK(std::distance(std::filesystem::directory_iterator(folder), std::filesystem::directory_iterator()) == 1);
    std::filesystem::remove_all(folder);
}

TEST_CASE("no sidecar is not an error - a sidecar is never written over a capture") {
    const auto folder = freshFolder("absent");
    CHECK_FALSE(readNoteSidecar((folder / "none.pcap.tcpscope-notes.json").string()).has_value());
    CHECK(noteSidecarPath("-").empty());
    const auto capture = folder / "capture.pcap";
    writeText(capture, "original bytes");
    CHECK_THROWS_AS(writeNoteSidecar(capture.string(), NoteSidecar{}), NoteFileError);
    std::ifstream in(capture);
    std::string kept;
    std::getline(in, kept);
    CHECK(kept == "original bytes");
    std::filesystem::remove_all(folder);
}

TEST_CASE("saving again replaces the sidecar as a whole") {
    const auto folder = freshFolder("replace");
    const std::string path = noteSidecarPath((folder / "c.pcap").string());
    NoteSet notes;
    const uint64_t id = notes.add(SpanNoteTarget{1, 2}, "first", 0);
    writeNoteSidecar(path, NoteSidecar{{"c.pcap"}, notes.notes()});
    notes.remove(id);
    notes.add(SpanNoteTarget{3, 4}, "second", 0);
    writeNoteSidecar(path, NoteSidecar{{"c.pcap"}, notes.notes()});
    const auto read = readNoteSidecar(path);
    REQUIRE(read->notes.size() == 1);
    CHECK(read->notes[0].text == "second");
    std::filesystem::remove_all(folder);
}

TEST_CASE("a corrupt, foreign or newer sidecar gives one line naming the file, offset and reason") {
    const auto folder = freshFolder("corrupt");
    const std::string path = (folder / "c.pcap.tcpscope-notes.json").string();

    writeText(path, R"({"format": "tcpscope-notes", "version": 1, "notes": [ {"id": 1,)");
    std::string message = readError(path);
    CHECK(message.starts_with(path + ": offset "));
    CHECK(message.find("JSON syntax error") != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);

    writeText(path, R"({"format": "tcpscope-notes", "version": 2, "notes": []})");
    message = readError(path);
    CHECK(message.find("version 2 is newer") != std::string::npos);

    writeText(path, R"({"some": "other json"})");
    CHECK(readError(path).find("not a tcpscope notes file") != std::string::npos);

    writeText(path, R"({"format": "tcpscope-notes", "version": 1, "notes": [{"id": 1, "text": "x", "created_ns": 0,
                        "target": {"type": "span", "start_ns": 9, "end_ns": 1}}]})");
    CHECK(readError(path).find("note 1: span ends before it starts") != std::string::npos);

    writeText(path, R"({"format": "tcpscope-notes", "version": 1, "notes": [{"id": 1, "text": 5, "created_ns": 0,
                        "target": {"type": "span", "start_ns": 1, "end_ns": 2}}]})");
    CHECK(readError(path).find("note 1: field 'text' has the wrong type") != std::string::npos);

    writeText(path, "\x89PNG binary garbage \x01\x02");
    CHECK(readError(path).find("JSON syntax error") != std::string::npos);
    std::filesystem::remove_all(folder);
}
