// tcpscope-cli capture and tcpscope-capture as a user runs them: Ctrl-C (SIGINT) and SIGTERM stop
// cleanly with the report and a complete file that analyses the same; without the capabilities,
// one line that says what to run. Live parts need CAP_NET_RAW (CI runs as root); skipped otherwise.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/live/child_process.hpp"
#include "core/live/live_test_support.hpp"
#include "live/live_error.hpp"
#include "live/pcap_capture.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        result.push_back(line);
    }
    return result;
}

// The command line that runs `argv` as nobody, with no capabilities at all.
std::vector<std::string> asNobody(std::vector<std::string> argv) {
    std::vector<std::string> command{"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                     "--inh-caps=-all", "--bounding-set=-all"};
    command.insert(command.end(), argv.begin(), argv.end());
    return command;
}

}  // namespace

TEST_CASE("tcpscope-cli capture: SIGINT and SIGTERM stop cleanly with the report and a file that analyses the same",
          "[live][cli]") {
    if (!test::mayCapture()) {
        return;
    }
    const auto [signal, viaHelper] = GENERATE(table<int, bool>({{SIGINT, false}, {SIGTERM, false}, {SIGTERM, true}}));
    INFO((signal == SIGINT ? "SIGINT" : "SIGTERM") << (viaHelper ? " through tcpscope-capture" : ""));
    const uint16_t port = test::livePort(100 + signal + (viaHelper ? 50 : 0));
    const std::filesystem::path path = test::uniqueTempPath("live-cli", ".pcapng");
    std::vector<std::string> argv{TCPSCOPE_CLI, "capture",  "-i",     "lo",   "--filter", "tcp port " + std::to_string(port),
                                  "--write",    path.string(), "--format", "json"};
    if (viaHelper) {
        argv.insert(argv.end(), {"--via-helper", "--helper", TCPSCOPE_CAPTURE_HELPER});
    }
    test::ChildProcess capture(argv);
    REQUIRE(capture.waitForOutput("Ctrl-C to stop", 10, true));
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "12"});
    REQUIRE(traffic.wait(30).exitCode == 0);
    // The finding is printed while the capture still runs, before any signal.
    CHECK(capture.waitForOutput("\"event\":\"finding\"", 5));
    capture.sendSignal(signal);
    const test::CommandResult result = capture.wait(20);
    CHECK(result.exitCode == 0);
    CHECK(result.signal == 0);
    const std::vector<std::string> output = lines(result.out);
    REQUIRE(output.size() >= 2);
    // One JSON object per line: the findings as they came, each then updated as it grew, its last
    // line with the waits the report counts; then the report.
    std::map<int64_t, uint64_t> lastWaits;  // flow -> delayed_requests of its finding's last line
    for (size_t index = 0; index + 1 < output.size(); ++index) {
        const nlohmann::json event = nlohmann::json::parse(output[index]);
        const int64_t flow = event["flow"].get<int64_t>();
        CHECK(event["event"] == (lastWaits.contains(flow) ? "finding_update" : "finding"));
        CHECK(event["kind"] == "delayed_ack_stall");
        lastWaits[flow] = event["delayed_requests"].get<uint64_t>();
    }
    const nlohmann::json report = nlohmann::json::parse(output.back());
    std::map<int64_t, uint64_t> reportedWaits;
    for (const nlohmann::json& finding : report["findings"]) {
        reportedWaits[finding["flow"].get<int64_t>()] = finding["impact"]["delayed_requests"].get<uint64_t>();
    }
    CHECK(lastWaits == reportedWaits);
    const nlohmann::json& live = report["capture"]["live"];
    CHECK(live["via_helper"] == viaHelper);
    CHECK(live["dropped_by_kernel"] == 0);  // the drop counter is in the report
    CHECK(live["not_analysed"] == 0);
    CHECK(live["packets_written"] == live["packets_captured"]);
    CHECK(live["error"].is_null());
    CHECK(report["findings"].size() >= 1);

    // The file is complete and analyses to the same flows and findings as the live report.
    const test::CommandResult analysed = test::runCommand({TCPSCOPE_CLI, "analyze", path.string(), "--format", "json"});
    REQUIRE(analysed.ok());
    CHECK(analysed.err.empty());  // no "cut short" warning: the last block is whole
    const nlohmann::json fileReport = nlohmann::json::parse(analysed.out);
    CHECK(fileReport["flows"] == report["flows"]);
    CHECK(fileReport["findings"] == report["findings"]);
    std::filesystem::remove(path);
}

TEST_CASE("tcpscope-cli capture takes the detector thresholds of analyze", "[live][cli]") {
    const test::CommandResult badRange =
        test::runCommand({TCPSCOPE_CLI, "capture", "-i", "lo", "--port-range", "9-1", "--count", "1"});
    CHECK(badRange.exitCode == 2);
    CHECK_THAT(badRange.err, Catch::Contains("--port-range must be LOW-HIGH"));
    if (!test::mayCapture()) {
        return;
    }
    // The same write-write-read traffic that stalls 40 ms per request: with a delayed-ACK floor
    // of 5 s no ACK counts as delayed, so the live analysis finds nothing.
    const uint16_t port = test::livePort(300);
    test::ChildProcess capture({TCPSCOPE_CLI, "capture", "-i", "lo", "--filter", "tcp port " + std::to_string(port),
                                "--format", "json", "--delayed-ack-floor-ms", "5000"});
    REQUIRE(capture.waitForOutput("Ctrl-C to stop", 10, true));
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "12"});
    REQUIRE(traffic.wait(30).exitCode == 0);
    capture.sendSignal(SIGINT);
    const test::CommandResult result = capture.wait(20);
    REQUIRE(result.exitCode == 0);
    INFO("the capture printed:\n" << result.out);
    const std::vector<std::string> output = lines(result.out);
    REQUIRE(!output.empty());
    // No delayed-ACK stall, neither as an event nor in the report. Only that is checked: on a
    // machine loaded enough for the kernel to drop captured packets, a gap can make another kind.
    const auto delayedAckStalls = [](const nlohmann::json& findings) {
        return std::count_if(findings.begin(), findings.end(),
                             [](const nlohmann::json& finding) { return finding["kind"] == "delayed_ack_stall"; });
    };
    std::vector<nlohmann::json> events;
    for (size_t index = 0; index + 1 < output.size(); ++index) {
        events.push_back(nlohmann::json::parse(output[index]));
    }
    CHECK(delayedAckStalls(nlohmann::json(events)) == 0);
    const nlohmann::json report = nlohmann::json::parse(output.back());
    CHECK(delayedAckStalls(report["findings"]) == 0);
    CHECK(report["flows"].size() >= 1);
}

TEST_CASE("tcpscope-capture without the capabilities: one line that says what to run", "[live][permissions]") {
    if (::geteuid() != 0 || !test::findInPath("setpriv")) {
        WARN("not root (or no setpriv): the permission error path was not exercised");
        return;
    }
    SECTION("the helper itself") {
        const test::CommandResult result = test::runCommand(asNobody({TCPSCOPE_CAPTURE_HELPER, "-i", "lo"}));
        CHECK(result.exitCode == 4);
        CHECK(result.out.empty());
        const std::vector<std::string> errors = lines(result.err);
        REQUIRE(errors.size() == 1);
        CHECK_THAT(errors[0], Catch::StartsWith("tcpscope-capture: lo: cannot capture: "));
        CHECK_THAT(errors[0], Catch::Contains(std::string("sudo setcap cap_net_raw,cap_net_admin+eip ") +
                                              std::filesystem::canonical(TCPSCOPE_CAPTURE_HELPER).string()));
    }
    SECTION("tcpscope-cli capture, which falls back on the helper and passes its message on") {
        const test::CommandResult result = test::runCommand(
            asNobody({TCPSCOPE_CLI, "capture", "-i", "lo", "--count", "1", "--helper", TCPSCOPE_CAPTURE_HELPER}));
        CHECK(result.exitCode == 3);
        CHECK(result.out.empty());
        const std::vector<std::string> errors = lines(result.err);
        REQUIRE(errors.size() == 1);
        CHECK_THAT(errors[0], Catch::StartsWith("tcpscope-cli: tcpscope-capture: lo: cannot capture: "));
        CHECK_THAT(errors[0], Catch::Contains("sudo setcap cap_net_raw,cap_net_admin+eip"));
    }
    SECTION("a helper the user may not run (not in its group)") {
        const std::filesystem::path copy = test::uniqueTempPath("tcpscope-capture-0750", "");
        std::filesystem::copy_file(TCPSCOPE_CAPTURE_HELPER, copy);
        std::filesystem::permissions(copy, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                               std::filesystem::perms::group_exec);
        const test::CommandResult result = test::runCommand(
            asNobody({TCPSCOPE_CLI, "capture", "-i", "lo", "--count", "1", "--helper", copy.string()}));
        CHECK(result.exitCode == 3);
        const std::vector<std::string> errors = lines(result.err);
        REQUIRE(errors.size() == 1);
        CHECK_THAT(errors[0], Catch::Contains("Permission denied"));
        CHECK_THAT(errors[0], Catch::Contains("usermod -aG tcpscope"));
        std::filesystem::remove(copy);
    }
}

TEST_CASE("tcpscope-capture refuses to write pcapng to a terminal and rejects a bad filter", "[live][cli]") {
    if (!test::mayCapture()) {
        return;
    }
    const test::CommandResult badFilter =
        test::runCommand({TCPSCOPE_CAPTURE_HELPER, "-i", "lo", "--filter", "tcp port banana"});
    CHECK(badFilter.exitCode == 6);
    CHECK(lines(badFilter.err).size() == 1);
    const test::CommandResult cliBadFilter =
        test::runCommand({TCPSCOPE_CLI, "capture", "-i", "lo", "--filter", "tcp port banana", "--count", "1"});
    CHECK(cliBadFilter.exitCode == 2);
    CHECK_THAT(cliBadFilter.err, Catch::Contains("invalid capture filter 'tcp port banana'"));
    const test::CommandResult noDevice = test::runCommand({TCPSCOPE_CLI, "capture", "-i", "nosuchdev0", "--count", "1"});
    CHECK(noDevice.exitCode == 3);
    CHECK_THAT(noDevice.err, Catch::StartsWith("tcpscope-cli: nosuchdev0: "));
}

TEST_CASE("tcpscope-cli interfaces lists lo as JSON", "[live][cli]") {
    const test::CommandResult result = test::runCommand({TCPSCOPE_CLI, "interfaces", "--format", "json"});
    REQUIRE(result.ok());
    const nlohmann::json list = nlohmann::json::parse(result.out);
    bool loopback = false;
    for (const nlohmann::json& interface : list["interfaces"]) {
        loopback = loopback || (interface["name"] == "lo" && interface["loopback"] == true);
    }
    CHECK(loopback);
}

}  // namespace tcpscope
