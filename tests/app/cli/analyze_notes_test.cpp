// tcpscope-cli analyze reports the notes of the capture: the top-level `notes` array of the JSON
// report holds exactly what `notes --format json` lists, the text report lists them, and a capture
// without notes gets no `notes` at all.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "annotate/note_sidecar.hpp"
#include "app/cli/run_command.hpp"

using namespace tcpscope;
namespace fs = std::filesystem;

namespace {

test::CommandResult cli(const std::vector<std::string>& arguments) {
    std::vector<std::string> argv{TCPSCOPE_CLI};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    return test::runCommand(argv);
}

}  // namespace

TEST_CASE("analyze lists the capture's notes in JSON and text", "[cli][notes]") {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-analyze-notes-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const std::string capture = (folder / "proxy-nagle.pcap").string();
    fs::copy_file(std::string(TCPSCOPE_SOURCE_DIR) + "/samples/proxy-nagle.pcap", capture);

    const auto bare = cli({"analyze", capture, "--format", "json"});
    REQUIRE(bare.ok());
    CHECK_FALSE(nlohmann::json::parse(bare.out).contains("notes"));
    const auto bareText = cli({"analyze", capture});
    REQUIRE(bareText.ok());
    CHECK(bareText.out.find("Notes (") == std::string::npos);

    REQUIRE(cli({"notes", capture, "--add-packet", "12", "--text", "held by Nagle"}).ok());
    REQUIRE(cli({"notes", capture, "--add-span", "0.5:0.55", "--text", "50 ms idle"}).ok());
    const auto listed = cli({"notes", capture, "--format", "json"});
    REQUIRE(listed.ok());
    const auto analyzed = cli({"analyze", capture, "--format", "json"});
    REQUIRE(analyzed.ok());
    const auto report = nlohmann::json::parse(analyzed.out);
    REQUIRE(report.contains("notes"));
    CHECK(report["notes"] == nlohmann::json::parse(listed.out)["notes"]);
    CHECK(report["notes"].size() == 2);
    CHECK(report["notes"][0]["text"] == "held by Nagle");
    CHECK(report["notes"][0]["target"]["frame"] == 12);
    CHECK_FALSE(report.contains("notes_error"));

    const auto text = cli({"analyze", capture});
    REQUIRE(text.ok());
    CHECK(text.out.find("Notes (2), sidecar " + noteSidecarPath(capture)) != std::string::npos);
    CHECK(text.out.find("frame 12") != std::string::npos);
    CHECK(text.out.find("held by Nagle") != std::string::npos);
    CHECK(text.out.find("50 ms idle") != std::string::npos);

    // An unreadable sidecar does not stop the analysis: an empty list and the reason.
    std::ofstream(noteSidecarPath(capture)) << "{ not json";
    const auto corrupt = cli({"analyze", capture, "--format", "json"});
    REQUIRE(corrupt.ok());
    const auto corruptReport = nlohmann::json::parse(corrupt.out);
    CHECK(corruptReport["notes"].empty());
    CHECK(corruptReport["notes_error"]["file"] == noteSidecarPath(capture));
    CHECK(corruptReport["findings"].size() > 0);
    fs::remove_all(folder);
}

TEST_CASE("analyze keeps no packet index yet places the capture's packet comments as notes does", "[cli][notes]") {
    const fs::path folder = fs::temp_directory_path() / ("tcpscope-analyze-comments-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
    const std::string capture = (folder / "proxy-nagle.pcap").string();
    const std::string copy = (folder / "commented.pcapng").string();
    fs::copy_file(std::string(TCPSCOPE_SOURCE_DIR) + "/samples/proxy-nagle.pcap", capture);
    REQUIRE(cli({"notes", capture, "--add-packet", "12", "--text", "held by Nagle"}).ok());
    REQUIRE(cli({"notes", capture, "--add-packet", "40", "--text", "later"}).ok());
    REQUIRE(cli({"notes", capture, "--write-pcapng", copy}).ok());

    // `notes` reads the packet index for the comments' times; `analyze` keeps none and takes them
    // from the frames as they were read. Both must place each comment on the same frame, file and time.
    const auto listed = cli({"notes", copy, "--format", "json"});
    REQUIRE(listed.ok());
    const auto analyzed = cli({"analyze", copy, "--format", "json"});
    REQUIRE(analyzed.ok());
    const auto fromIndex = nlohmann::json::parse(listed.out)["notes"];
    const auto report = nlohmann::json::parse(analyzed.out);
    REQUIRE(fromIndex.size() == 2);
    CHECK(report["capture"]["packet_comments"] == 2);
    CHECK(report["notes"] == fromIndex);
    CHECK(fromIndex[1]["target"]["frame"] == 40);
    CHECK(fromIndex[1]["target"]["file"] == "commented.pcapng");
    CHECK(fromIndex[1]["target"]["ts"].is_number());
    fs::remove_all(folder);
}
