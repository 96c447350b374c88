// tcpscope-cli notes: adds notes to the sidecar, lists them (text and JSON), refuses bad targets
// with exit code 2, and writes the pcapng copy; the capture is never modified.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "annotate/note_sidecar.hpp"
#include "app/cli/run_command.hpp"

using namespace tcpscope;
namespace fs = std::filesystem;

namespace {

test::CommandResult notes(const std::vector<std::string>& arguments) {
    std::vector<std::string> argv{TCPSCOPE_CLI, "notes"};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return test::runCommand(argv);
}

std::string bytesOf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("tcpscope-cli notes adds, lists and copies notes without touching the capture") {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-cli-notes-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const std::string capture = (folder / "proxy-nagle.pcap").string();
    fs::copy_file(std::string(TCPSCOPE_SOURCE_DIR) + "/samples/proxy-nagle.pcap", capture);
    const std::string original = bytesOf(capture);

    REQUIRE(notes({capture, "--add-packet", "12", "--text", "held by Nagle"}).ok());
    REQUIRE(notes({capture, "--add-span", "0.5:0.55", "--text", "50 ms idle"}).ok());
    REQUIRE(notes({capture, "--add-finding", "0", "--text", "set TCP_NODELAY"}).ok());
    const auto sidecar = readNoteSidecar(noteSidecarPath(capture));
    REQUIRE(sidecar.has_value());
    REQUIRE(sidecar->notes.size() == 3);
    CHECK(std::get<PacketNoteTarget>(sidecar->notes[0].target).frame == 12);
    const auto& span = std::get<SpanNoteTarget>(sidecar->notes[1].target);
    CHECK(span.endNs - span.startNs == 50'000'000);
    CHECK(std::get<FindingNoteTarget>(sidecar->notes[2].target).kind == FindingKind::DelayedAckStall);

    const auto listed = notes({capture, "--format", "json"});
    REQUIRE(listed.ok());
    const auto document = nlohmann::json::parse(listed.out);
    REQUIRE(document["notes"].size() == 3);
    CHECK(document["notes"][0]["target"]["type"] == "packet");
    CHECK(document["notes"][1]["target"]["end_ts"].get<double>() - document["notes"][1]["target"]["ts"].get<double>() ==
          Approx(0.05));

    const auto badFrame = notes({capture, "--add-packet", "100000", "--text", "x"});
    CHECK(badFrame.exitCode == 2);
    CHECK(badFrame.err.find("no frame 100000") != std::string::npos);
    CHECK(notes({capture, "--add-span", "2:1", "--text", "x"}).exitCode == 2);
    CHECK(notes({capture, "--add-packet", "3"}).exitCode == 2);  // no --text
    CHECK(notes({capture, "--remove", "1"}).ok());
    CHECK(readNoteSidecar(noteSidecarPath(capture))->notes.size() == 2);

    const std::string copy = (folder / "copy.pcapng").string();
    REQUIRE(notes({capture, "--add-packet", "7", "--text", "in the copy", "--write-pcapng", copy}).ok());
    CHECK(fs::file_size(copy) > fs::file_size(capture));
    const auto refused = notes({capture, "--write-pcapng", capture});
    CHECK(refused.exitCode == 3);
    CHECK(refused.err.find("refusing") != std::string::npos);
    CHECK(bytesOf(capture) == original);

    // A corrupt sidecar: one line on stderr, the capture still listed, no note saved over it.
    std::ofstream(noteSidecarPath(capture)) << "{ not json";
    const auto corrupt = notes({capture, "--add-packet", "5", "--text", "x"});
    CHECK(corrupt.exitCode == 3);
    CHECK(corrupt.err.find("JSON syntax error") != std::string::npos);
    CHECK(bytesOf(noteSidecarPath(capture)) == "{ not json");
    fs::remove_all(folder);
}

TEST_CASE("tcpscope-cli notes --add-syscall pins a note to a call of the strace log - a wrong line is one line of error") {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-cli-syscall-notes-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const std::string capture = (folder / "proxy-nagle.pcap").string();
    const std::string log = (folder / "proxy-nagle.strace").string();
    fs::copy_file(std::string(TCPSCOPE_SOURCE_DIR) + "/samples/proxy-nagle.pcap", capture);
    fs::copy_file(std::string(TCPSCOPE_SOURCE_DIR) + "/samples/proxy-nagle.strace", log);

    // Line 708: the proxy's sendto(35) that Nagle holds first.
    const auto added = notes({capture, "--strace", log, "--add-syscall", "proxy-nagle.strace:708", "--text", "held"});
    REQUIRE(added.ok());
    CHECK(added.err.find("added note #1 on proxy-nagle.strace:708") != std::string::npos);
    const auto sidecar = readNoteSidecar(noteSidecarPath(capture));
    REQUIRE(sidecar.has_value());
    REQUIRE(sidecar->notes.size() == 1);
    const auto& call = std::get<SyscallNoteTarget>(sidecar->notes[0].target);
    CHECK(call.logFile == "proxy-nagle.strace");
    CHECK(call.line == 708);

    // On the capture's clock: 03:28:52.959443 in the log, 46 ms before frame 29 carried the bytes.
    const auto listed = notes({capture, "--format", "json"});
    REQUIRE(listed.ok());
    const auto target = nlohmann::json::parse(listed.out)["notes"][0]["target"];
    CHECK(target["type"] == "syscall");
    CHECK(target["line"] == 708);
    const auto packets = test::runCommand({TCPSCOPE_CLI, "packets", capture, "--format", "json"});
    REQUIRE(packets.ok());
    const auto frames = nlohmann::json::parse(packets.out)["packets"];
    const auto first = frames[0]["ts"].get<double>();
    CHECK(target["ts"].get<double>() - first == Approx(0.025785).margin(0.002));

    const auto wrongLine = notes({capture, "--strace", log, "--add-syscall", "proxy-nagle.strace:99999", "--text", "x"});
    CHECK(wrongLine.exitCode == 2);
    CHECK(wrongLine.err == "tcpscope-cli: proxy-nagle.strace: line 99999: no system call starts there (nearest: line 1038)\n");
    const auto noLog = notes({capture, "--add-syscall", "proxy-nagle.strace:708", "--text", "x"});
    CHECK(noLog.exitCode == 2);
    CHECK(noLog.err.find("no strace log given") != std::string::npos);
    const auto otherLog = notes({capture, "--strace", log, "--add-syscall", "other.strace:708", "--text", "x"});
    CHECK(otherLog.exitCode == 2);
    CHECK(notes({capture, "--strace", log, "--add-syscall", "proxy-nagle.strace", "--text", "x"}).exitCode == 2);
    CHECK(readNoteSidecar(noteSidecarPath(capture))->notes.size() == 1);
    fs::remove_all(folder);
}
