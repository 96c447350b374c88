#pragma once
// What the export tests share: a temporary folder, the sample captures, and tcpscope-cli's JSON.
// Header only: cliJson needs tests/app/cli/run_command.cpp in the test program.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/cli/run_command.hpp"

namespace tcpscope::test {

/// A folder under the system's temporary folder, empty at first, removed with everything in it.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name)
        : path(std::filesystem::temp_directory_path() / ("tcpscope-" + name + "-" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

/// The path of samples/NAME.
inline std::string samplePath(const std::string& name) {
    return std::string(TCPSCOPE_SOURCE_DIR) + "/samples/" + name;
}

/// Runs tcpscope-cli with `arguments`, requires the exit code, and parses what it printed.
inline nlohmann::json cliJson(const std::vector<std::string>& arguments, int expectedExit = 0) {
    std::vector<std::string> argv{TCPSCOPE_CLI};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const CommandResult result = runCommand(argv);
    INFO(describeCommand(argv) << "\n" << result.err);
    REQUIRE(result.exitCode == expectedExit);
    return nlohmann::json::parse(result.out);
}

}  // namespace tcpscope::test
