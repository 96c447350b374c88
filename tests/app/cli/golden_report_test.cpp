// Golden tests of the CLI's JSON: for every capture in samples/, `tcpscope-cli analyze FILE
// --format json` must print exactly samples/expected/<name>.analyze.json. When it does not, the
// actual output is written beside the expected one (<name>.analyze.actual.json) so the change
// can be read with diff; TCPSCOPE_UPDATE_GOLDEN=1 rewrites the expected files instead.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sampleCaptures() {
    std::vector<fs::path> captures;
    for (const auto& entry : fs::directory_iterator(fs::path(TCPSCOPE_SOURCE_DIR) / "samples")) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && (name.ends_with(".pcap") || name.ends_with(".pcapng") ||
                                        name.ends_with(".pcap.gz") || name.ends_with(".pcap.zst"))) {
            captures.push_back(entry.path());
        }
    }
    std::sort(captures.begin(), captures.end());
    return captures;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Runs the CLI from the source folder with a relative path, so the report names the file the
// same way on every machine.
tcpscope::test::CommandResult runFromSourceDir(const std::vector<std::string>& arguments) {
    const fs::path previous = fs::current_path();
    fs::current_path(TCPSCOPE_SOURCE_DIR);
    std::vector<std::string> argv{TCPSCOPE_CLI};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    auto result = tcpscope::test::runCommand(argv);
    fs::current_path(previous);
    return result;
}

}  // namespace

TEST_CASE("the JSON report of every sample matches its expected report", "[cli][golden]") {
    const auto captures = sampleCaptures();
    REQUIRE_FALSE(captures.empty());
    const bool update = std::getenv("TCPSCOPE_UPDATE_GOLDEN") != nullptr;
    for (const fs::path& capture : captures) {
        const std::string name = capture.filename().string();
        const fs::path relative = fs::path("samples") / name;
        const fs::path expectedPath = capture.parent_path() / "expected" / (name + ".analyze.json");
        const fs::path actualPath = capture.parent_path() / "expected" / (name + ".analyze.actual.json");
        SECTION(name) {
            auto result = runFromSourceDir({"analyze", relative.string(), "--format", "json"});
            INFO(result.err);
            REQUIRE(result.exitCode == 0);
            if (update) {
                std::ofstream(expectedPath, std::ios::binary) << result.out;
            }
            REQUIRE(fs::exists(expectedPath));
            const bool same = result.out == readFile(expectedPath);
            if (same) {
                fs::remove(actualPath);
            } else {
                std::ofstream(actualPath, std::ios::binary) << result.out;
            }
            INFO("expected " << expectedPath << ", actual written to " << actualPath);
            CHECK(same);
        }
    }
}

TEST_CASE("the CLI's exit codes: 2 for bad usage, 3 for input it cannot read", "[cli]") {
    CHECK(runFromSourceDir({"analyze"}).exitCode == 2);
    CHECK(runFromSourceDir({"frobnicate"}).exitCode == 2);
    CHECK(runFromSourceDir({"analyze", "samples/proxy-nagle.pcap", "--format", "xml"}).exitCode == 2);
    const auto badFilter = runFromSourceDir({"analyze", "samples/proxy-nagle.pcap", "--filter", "tcp port"});
    CHECK(badFilter.exitCode == 2);
    CHECK(badFilter.err.find("invalid filter expression") != std::string::npos);

    const auto missing = runFromSourceDir({"analyze", "samples/no-such-file.pcap"});
    CHECK(missing.exitCode == 3);
    CHECK(missing.err.find("samples/no-such-file.pcap") != std::string::npos);
    CHECK(std::count(missing.err.begin(), missing.err.end(), '\n') == 1);  // one line

    const auto notCapture = runFromSourceDir({"analyze", "README.md"});
    CHECK(notCapture.exitCode == 3);
    CHECK(notCapture.err.find("README.md") != std::string::npos);
}

TEST_CASE("a BPF filter keeps Wireshark's frame numbers and only the matching connections", "[cli]") {
    const auto all = runFromSourceDir({"packets", "samples/proxy-nagle.pcap", "--format", "json"});
    const auto backend = runFromSourceDir(
        {"packets", "samples/proxy-nagle.pcap", "--format", "json", "--filter", "tcp port 3306"});
    REQUIRE(all.exitCode == 0);
    REQUIRE(backend.exitCode == 0);
    CHECK(backend.out.size() < all.out.size());
    CHECK(backend.out.find(":3307") == std::string::npos);
    CHECK(backend.out.find(":3306") != std::string::npos);
}

TEST_CASE("pcapng packet comments written by editcap are shown with their packets", "[cli]") {
    const auto editcap = tcpscope::test::findInPath("editcap");
    if (!editcap) {
        WARN("editcap not installed: packet comments not checked");
        return;
    }
    const fs::path plain = fs::temp_directory_path() / "tcpscope-comment-plain.pcapng";
    const fs::path commented = fs::temp_directory_path() / "tcpscope-comment.pcapng";
    const fs::path sample = fs::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap";
    REQUIRE(tcpscope::test::runCommand({editcap->string(), "-F", "pcapng", sample.string(), plain.string()}).ok());
    REQUIRE(tcpscope::test::runCommand(
                {editcap->string(), "-a", "3:incident starts here", plain.string(), commented.string()})
                .ok());
    const auto result = tcpscope::test::runCommand({TCPSCOPE_CLI, "packets", commented.string(), "--format", "json"});
    REQUIRE(result.exitCode == 0);
    const auto frame3 = result.out.find("\"frame\": 3,");
    const auto frame4 = result.out.find("\"frame\": 4,");
    const auto comment = result.out.find("\"comment\": \"incident starts here\"");
    CHECK(comment != std::string::npos);
    CHECK(frame3 < comment);
    CHECK(comment < frame4);
    fs::remove(plain);
    fs::remove(commented);
}
