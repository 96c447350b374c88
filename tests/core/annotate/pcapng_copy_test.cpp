// The pcapng copy with the notes as packet comments: every packet and time identical to the
// original (read back by tcpscope and by tshark), the notes readable by Wireshark as frame
// comments, comments already in the file kept, and the original never modified.
#include "annotate/pcapng_copy.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "annotate/note_set.hpp"
#include "annotate/note_sidecar.hpp"
#include "capture/capture_reader.hpp"
#include "app/cli/run_command.hpp"

using namespace tcpscope;
namespace fs = std::filesystem;

namespace {

struct CopiedFrame {
    int64_t tsNs = 0;
    uint32_t originalLength = 0;
    uint32_t linkType = 0;
    std::vector<uint8_t> bytes;
    std::string comment;
};

std::vector<CopiedFrame> readFrames(const std::string& path) {
    auto reader = CaptureReader::open(path);
    std::vector<CopiedFrame> frames;
    RawPacket packet;
    while (reader->next(packet)) {
        frames.push_back({packet.tsNs, packet.originalLength, packet.linkType,
                          std::vector<uint8_t>(packet.data, packet.data + packet.capturedLength),
                          std::string(packet.comment)});
    }
    REQUIRE(reader->error() == nullptr);
    return frames;
}

std::string fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path freshFolder(const std::string& name) {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-copy-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    return folder;
}

std::string sample(const char* name) { return std::string(TCPSCOPE_SOURCE_DIR) + "/samples/" + name; }

std::string tshark(const std::vector<std::string>& arguments) {
    std::vector<std::string> argv{"tshark"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const auto result = test::runCommand(argv);
    INFO(test::describeCommand(argv) << "\n" << result.err << result.error);
    REQUIRE(result.ok());
    return result.out;
}

void requireSameFrames(const std::vector<CopiedFrame>& original, const std::vector<CopiedFrame>& copy) {
    REQUIRE(copy.size() == original.size());
    for (size_t i = 0; i < original.size(); ++i) {
        INFO("frame " << i + 1);
        CHECK(copy[i].tsNs == original[i].tsNs);
        CHECK(copy[i].originalLength == original[i].originalLength);
        CHECK(copy[i].linkType == original[i].linkType);
        CHECK(copy[i].bytes == original[i].bytes);
    }
}

}  // namespace

TEST_CASE("a pcap becomes a pcapng copy with the notes as comments - tshark reads the same packets and the notes") {
    const std::string original = sample("proxy-nagle.pcap");
    const std::string originalBytes = fileBytes(original);
    const fs::path folder = freshFolder("pcap");
    const std::string copyPath = (folder / "proxy-nagle-notes.pcapng").string();

    NoteSet notes;
    notes.add(PacketNoteTarget{5, "proxy-nagle.pcap", 0}, "the small write", 0);
    notes.add(PacketNoteTarget{12, "proxy-nagle.pcap", 0}, "held by Nagle", 0);
    notes.add(PacketNoteTarget{12, "proxy-nagle.pcap", 0}, "until this delayed ACK", 0);
    notes.add(SpanNoteTarget{1, 2}, "a span is not a packet comment", 0);
    notes.add(PacketNoteTarget{999999, "proxy-nagle.pcap", 0}, "past the end", 0);

    const PcapngCopyResult result = writePcapngWithNotes({original}, notes.notes(), copyPath);
    CHECK(result.notesWritten == 3);
    CHECK(result.notesNotPlaced == 1);
    CHECK(result.commentsKept == 0);
    CHECK(result.problems.empty());

    CHECK(fileBytes(original) == originalBytes);  // the original is untouched
    CHECK(fs::directory_iterator(folder)->path().filename() == "proxy-nagle-notes.pcapng");  // no temporary left

    const auto originalFrames = readFrames(original);
    const auto copiedFrames = readFrames(copyPath);
    CHECK(result.packets == originalFrames.size());
    requireSameFrames(originalFrames, copiedFrames);
    CHECK(CaptureReader::open(copyPath)->format().container == "pcapng");
    CHECK(copiedFrames[4].comment == "the small write");
    CHECK(copiedFrames[11].comment == "held by Nagle");  // our reader keeps the first of several

    // Wireshark: the comments of frames 5 and 12 (both of 12's), and every time and length identical.
    const std::string comments =
        tshark({"-r", copyPath, "-Y", "frame.comment", "-T", "fields", "-e", "frame.number", "-e", "frame.comment"});
    CHECK(comments == "5\tthe small write\n12\theld by Nagle,until this delayed ACK\n");
    const std::vector<std::string> timesAndLengths{"-T", "fields", "-e", "frame.time_epoch", "-e", "frame.len",
                                                   "-e", "frame.cap_len"};
    std::vector<std::string> originalArgs{"-r", original};
    std::vector<std::string> copyArgs{"-r", copyPath};
    originalArgs.insert(originalArgs.end(), timesAndLengths.begin(), timesAndLengths.end());
    copyArgs.insert(copyArgs.end(), timesAndLengths.begin(), timesAndLengths.end());
    const std::string originalTimes = tshark(originalArgs);
    CHECK(originalTimes.size() > 100);
    CHECK(tshark(copyArgs) == originalTimes);
    fs::remove_all(folder);
}

TEST_CASE("a copy of a copy keeps the comments already in the file and adds the new notes after them") {
    const fs::path folder = freshFolder("again");
    const std::string first = (folder / "first.pcapng").string();
    const std::string second = (folder / "second.pcapng").string();
    NoteSet notes;
    notes.add(PacketNoteTarget{3, "", 0}, "first note", 0);
    writePcapngWithNotes({sample("proxy-nagle-ttt.pcapng")}, notes.notes(), first);

    NoteSet more;
    more.add(PacketNoteTarget{3, "", 0}, "second note", 0);
    more.add(PacketNoteTarget{4, "", 0}, "on frame four", 0);
    more.setCaptureComments({PacketNoteTarget{3, "", 0}}, {"first note"});  // shown, never written twice
    const PcapngCopyResult result = writePcapngWithNotes({first}, more.notes(), second);
    CHECK(result.commentsKept == 1);
    CHECK(result.notesWritten == 2);
    CHECK(tshark({"-r", second, "-Y", "frame.comment", "-T", "fields", "-e", "frame.number", "-e", "frame.comment"}) ==
          "3\tfirst note,second note\n4\ton frame four\n");
    requireSameFrames(readFrames(sample("proxy-nagle-ttt.pcapng")), readFrames(second));
    fs::remove_all(folder);
}

TEST_CASE("several files are merged in the analysis's frame order") {
    const fs::path folder = freshFolder("merge");
    const std::string copyPath = (folder / "merged.pcapng").string();
    const std::vector<std::string> inputs{sample("http-close.pcap"), sample("http-keepalive.pcap")};
    const PcapngCopyResult result = writePcapngWithNotes(inputs, {}, copyPath);
    const auto copied = readFrames(copyPath);
    CHECK(result.packets == readFrames(inputs[0]).size() + readFrames(inputs[1]).size());
    CHECK(copied.size() == result.packets);
    CHECK(std::is_sorted(copied.begin(), copied.end(),
                         [](const CopiedFrame& a, const CopiedFrame& b) { return a.tsNs < b.tsNs; }));
    // A nanosecond pcap and a microsecond one: two interfaces, each in its own resolution.
    const std::string interfaces = tshark({"-r", copyPath, "-T", "fields", "-e", "frame.interface_id"});
    CHECK(interfaces.find("0\n") != std::string::npos);
    CHECK(interfaces.find("1\n") != std::string::npos);
    fs::remove_all(folder);
}

TEST_CASE("the copy is never written over an input, and a cut input is copied up to the cut") {
    const fs::path folder = freshFolder("refuse");
    const std::string capture = (folder / "capture.pcap").string();
    fs::copy_file(sample("proxy-nagle.pcap"), capture);
    const std::string before = fileBytes(capture);
    NoteSet notes;
    notes.add(PacketNoteTarget{1, "capture.pcap", 0}, "x", 0);
    try {
        writePcapngWithNotes({capture}, notes.notes(), capture);
        FAIL("the capture was accepted as its own copy");
    } catch (const NoteFileError& error) {
        CHECK(std::string(error.what()).find("refusing to write the copy over its own capture") != std::string::npos);
    }
    const std::string linkToCapture = (folder / "same.pcap").string();
    fs::create_hard_link(capture, linkToCapture);
    CHECK_THROWS_AS(writePcapngWithNotes({capture}, notes.notes(), linkToCapture), NoteFileError);
    CHECK(fileBytes(capture) == before);

    const std::string cut = (folder / "cut.pcap").string();
    std::ofstream(cut, std::ios::binary) << before.substr(0, before.size() / 2);
    const PcapngCopyResult result = writePcapngWithNotes({cut}, {}, (folder / "cut-copy.pcapng").string());
    REQUIRE(result.problems.size() == 1);
    CHECK(result.problems[0].file == cut);
    CHECK(result.packets == readFrames((folder / "cut-copy.pcapng").string()).size());
    CHECK(result.packets > 0);
    fs::remove_all(folder);
}
