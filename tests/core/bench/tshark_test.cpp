// The benchmark runs tshark on the same files: tshark must read them as they are, without a
// complaint, or the comparison would be meaningless.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/generated_capture.hpp"

using tcpscope::bench::Workload;
using tcpscope::test::GeneratedCapture;
using tcpscope::test::smallWorkload;

namespace {

bool tsharkInstalled() { return std::system("command -v tshark >/dev/null 2>&1 && command -v capinfos >/dev/null 2>&1") == 0; }

// Runs `command` through the shell (paths in it are our own temporary files, without quotes);
// returns its exit status and what it printed on stdout.
int runShell(const std::string& command, std::string& output) {
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return -1;
    }
    std::array<char, 4096> block{};
    while (size_t got = std::fread(block.data(), 1, block.size(), pipe)) {
        output.append(block.data(), got);
    }
    const int status = ::pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The lines of `text` that are not tshark's warning about running as root.
std::string withoutRootWarning(const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    std::string kept;
    while (std::getline(lines, line)) {
        if (line.rfind("Running as user", 0) != 0) {
            kept += line + '\n';
        }
    }
    return kept;
}

}  // namespace

TEST_CASE("generator: tshark reads small captures of every workload without complaint", "[bench][tshark]") {
    if (!tsharkInstalled()) {
        WARN("tshark is not installed; skipped");
        return;
    }
    const auto [workload, packets] = GENERATE(table<Workload, uint64_t>({
        {Workload::W1, 10'000},
        {Workload::W2, 3'000},
        {Workload::W3, 10'000},
    }));
    CAPTURE(tcpscope::bench::workloadName(workload));
    const GeneratedCapture capture(smallWorkload(workload, packets));
    const std::string errors = capture.path() + ".stderr";
    std::string output;
    const int status = runShell("tshark -n -q -z conv,tcp -r '" + capture.path() + "' 2>'" + errors + "'", output);
    std::ifstream errorFile(errors);
    const std::string complaints((std::istreambuf_iterator<char>(errorFile)), std::istreambuf_iterator<char>());
    std::filesystem::remove(errors);
    CHECK(status == 0);
    CHECK(withoutRootWarning(complaints).empty());
    // The conversation table lists the generated connections.
    CHECK_THAT(output, Catch::Contains("TCP Conversations"));
}

TEST_CASE("generator: capinfos counts the packets written", "[bench][tshark]") {
    if (!tsharkInstalled()) {
        WARN("tshark is not installed; skipped");
        return;
    }
    const GeneratedCapture capture(smallWorkload(Workload::W1, 10'000));
    std::string output;
    REQUIRE(runShell("capinfos -c -M '" + capture.path() + "' 2>/dev/null", output) == 0);
    CHECK_THAT(output, Catch::Contains("Number of packets:   " + std::to_string(capture.stats().packets)));
}
