// tcpscope-cli notes: adds notes to the sidecar, lists them (text and JSON), refuses bad targets
// with exit code 2, and writes the pcapng copy; the capture is never modified.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "annotate/note_sidecar.hpp"
#include "core/cli/run_command.hpp"

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
    CHECK(std::get<FindingNoteTarget>(sidecar->notes[2].target).kind == "delayed_ack_stall");

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
