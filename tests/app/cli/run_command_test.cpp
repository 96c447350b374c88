// The command runner used by the CLI tests: arguments reach the program untouched (no shell), and exit
// status, stdout, stderr and environment overrides come back as they were.
#include <catch2/catch.hpp>

#include <string>

#include "run_command.hpp"

using tcpscope::test::CommandOptions;
using tcpscope::test::describeCommand;
using tcpscope::test::runCommand;

TEST_CASE("runCommand passes arguments without a shell", "[cli][run_command]") {
    const std::string hostile = "a file; rm -rf / $(id) `id` 'q' \"d\" *";
    const auto result = runCommand({"printf", "%s|%s", hostile, ""});
    REQUIRE(result.ok());
    CHECK(result.out == hostile + "|");
}

TEST_CASE("runCommand reports exit status, stderr and missing programs", "[cli][run_command]") {
    const auto failing = runCommand({"ls", "/no/such/folder/for/tcpscope"});
    CHECK(failing.started);
    CHECK(failing.exitCode != 0);
    CHECK_FALSE(failing.err.empty());

    const auto missing = runCommand({"tcpscope-no-such-program"});
    CHECK_FALSE(missing.started);
    CHECK_FALSE(missing.error.empty());
}

TEST_CASE("runCommand sets environment overrides for the child only", "[cli][run_command]") {
    CommandOptions options;
    options.environment["TCPSCOPE_RUN_COMMAND_TEST"] = "value with spaces";
    const auto result = runCommand({"printenv", "TCPSCOPE_RUN_COMMAND_TEST"}, options);
    REQUIRE(result.ok());
    CHECK(result.out == "value with spaces\n");
}

TEST_CASE("describeCommand quotes what a shell would split", "[cli][run_command]") {
    CHECK(describeCommand({"tshark", "-r", "my file's.pcap"}) == "tshark -r 'my file'\\''s.pcap'");
}
