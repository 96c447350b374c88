// `--spill-dir` keeps the connections' records in a file instead of memory: the report is the same
// byte for byte, and a directory where no file can be made is one warning line, the records then
// staying in memory.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "run_command.hpp"

using tcpscope::test::runCommand;

namespace {

const std::string kSamples = TCPSCOPE_SOURCE_DIR "/samples/";

// The report without its version line (the only line that may differ between two builds).
std::string reportOf(const std::vector<std::string>& spillOptions, std::string* err = nullptr) {
    std::vector<std::string> argv{TCPSCOPE_CLI, "analyze", "--format", "json", kSamples + "http-tw-reuse.pcap"};
    argv.insert(argv.end(), spillOptions.begin(), spillOptions.end());
    const auto result = runCommand(argv);
    REQUIRE(result.ok());
    if (err != nullptr) {
        *err = result.err;
    }
    return result.out;
}

}  // namespace

TEST_CASE("analyze --spill-dir reports what analyze in memory reports", "[cli][spill]") {
    std::string quiet;
    const std::string inMemory = reportOf({"--no-spill"}, &quiet);
    CHECK(quiet.empty());
    CHECK(reportOf({}) == inMemory);  // a small input on a machine with memory: nothing spills
    const std::string spilled = reportOf({"--spill-dir", std::filesystem::temp_directory_path().string()}, &quiet);
    CHECK(spilled == inMemory);
    CHECK(quiet.empty());

    std::string warning;
    const std::string unspilled = reportOf({"--spill-dir", "/nonexistent-directory-of-tcpscope"}, &warning);
    CHECK(unspilled == inMemory);
    CHECK(warning ==
          "tcpscope-cli: warning: spill file in /nonexistent-directory-of-tcpscope: No such file or directory\n");

    const auto both = runCommand({TCPSCOPE_CLI, "analyze", kSamples + "http-tw-reuse.pcap", "--no-spill",
                                  "--spill-dir", "/tmp"});
    CHECK(both.exitCode != 0);
}
