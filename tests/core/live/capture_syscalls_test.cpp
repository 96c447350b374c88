// tcpscope-cli capture --syscalls: the socket calls of the traffic's processes recorded during the
// live capture, the stalls confirmed from them in the live report, and the written file analysed to
// the same report. Needs root, BPF and tracefs: skips saying why.
#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "core/live/child_process.hpp"
#include "core/live/live_test_support.hpp"
#include "support/packet_builder.hpp"
#include "support/recorder_check.hpp"

namespace tcpscope {

namespace {

// Runs `command` (tcpscope-cli capture --syscalls --comm python3, on lo with --filter 'tcp port
// PORT', --write PATH, --format json) over the write-write-read traffic, stops it with SIGINT, and
// checks what a user sees: each stall finding confirmed by a verdict line while the capture runs, the
// report's syscalls section, and the same flows, findings and syscalls from `analyze` of the file.
// Returns the report.
nlohmann::json checkCaptureWithCalls(const std::vector<std::string>& command, const std::filesystem::path& path,
                                     uint16_t port) {
    test::ChildProcess capture(command);
    REQUIRE(capture.waitForOutput("Ctrl-C to stop", 20, true));
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "8"});
    REQUIRE(traffic.wait(30).exitCode == 0);
    CHECK(capture.waitForOutput("\"event\":\"finding\"", 5));
    // The verdict comes while the capture still runs (it runs until SIGINT), a moment after the stalls.
    REQUIRE(capture.waitForOutput("\"event\":\"verdict\"", 5));
    const std::vector<nlohmann::json> liveVerdicts = test::jsonEvents(capture.outputSoFar(), "verdict");
    capture.sendSignal(SIGINT);
    const test::CommandResult result = capture.wait(20);
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    const nlohmann::json report = nlohmann::json::parse(test::lastLine(result.out));

    // Each stall finding printed live was confirmed live, before the capture ended, and the report
    // (from every call, at the end) says the same: no verdict revised.
    REQUIRE(!liveVerdicts.empty());
    for (const nlohmann::json& verdict : liveVerdicts) {
        INFO(verdict.dump());
        CHECK(verdict["verdict"] == "confirmed");
        CHECK(verdict["kind"] == "delayed_ack_stall");
        CHECK(verdict["pattern"].get<std::string>().find("sendto, sendto") != std::string::npos);
        CHECK(verdict["kernel_hold_ms"].get<double>() > 10);
        CHECK(verdict["ts"].get<double>() >= verdict["stall_ended"].get<double>());
        CHECK(verdict["ts"].get<double>() < report["capture"]["live"]["ended"].get<double>());
    }
    CHECK(test::jsonEvents(result.out, "verdict").size() == liveVerdicts.size());
    CHECK(test::jsonEvents(result.out, "verdict_revised").empty());
    const std::vector<nlohmann::json> findingLines = test::jsonEvents(result.out, "finding");
    CHECK(std::all_of(liveVerdicts.begin(), liveVerdicts.end(), [&findingLines](const nlohmann::json& verdict) {
        return std::any_of(findingLines.begin(), findingLines.end(),
                           [&verdict](const nlohmann::json& finding) { return finding["id"] == verdict["id"]; });
    }));

    const nlohmann::json& syscalls = report["capture"]["live"]["syscalls"];
    CHECK(syscalls["recorded"].get<uint64_t>() > 0);
    CHECK(syscalls["lost"] == 0);
    CHECK(syscalls["packets_with_process"].get<uint64_t>() > 0);
    CHECK(syscalls["unused"].is_null());
    // Every Nagle / delayed-ACK stall of the capture is confirmed from the recorded calls.
    REQUIRE(report["findings"].size() >= 1);
    for (const nlohmann::json& finding : report["findings"]) {
        INFO(finding.dump());
        CHECK(finding["kind"] == "delayed_ack_stall");
        CHECK(finding["evidence"]["strace"]["confirmed"].get<uint64_t>() >= 1);
        CHECK(finding["evidence"]["strace"]["refuted"] == 0);
    }
    // Both ends of each flow named with the python process, as analyze names them from the comments.
    for (const nlohmann::json& flow : report["flows"]) {
        INFO(flow.dump());
        CHECK(flow.dump().find("python3") != std::string::npos);
    }

    // The written file holds the calls; analyze reads them to the same flows, findings and syscalls.
    const test::CommandResult analysed = test::runCommand({TCPSCOPE_CLI, "analyze", path.string(), "--format", "json"});
    REQUIRE(analysed.ok());
    const nlohmann::json fileReport = nlohmann::json::parse(analysed.out);
    CHECK(fileReport["flows"] == report["flows"]);
    CHECK(fileReport["findings"] == report["findings"]);
    CHECK(fileReport["syscalls"] == report["syscalls"]);
    return report;
}

// tcpscope-cli capture --syscalls --comm python3 on lo, run by `runAs` (a setpriv line, or empty),
// with `more` arguments.
std::vector<std::string> captureWithCalls(const std::filesystem::path& path, uint16_t port,
                                          const std::vector<std::string>& runAs, const std::vector<std::string>& more) {
    std::vector<std::string> command = runAs;
    command.insert(command.end(), {TCPSCOPE_CLI, "capture", "-i", "lo", "--filter", "tcp port " + std::to_string(port),
                                   "--write", path.string(), "--format", "json", "--syscalls", "--comm", "python3"});
    command.insert(command.end(), more.begin(), more.end());
    return command;
}

// A copy of the helper nobody may run, given the capabilities setup-capture-helper.sh gives (none if
// `capabilities` is empty).
std::filesystem::path helperCopy(const std::string& capabilities) {
    const std::filesystem::path helper = test::uniqueTempPath("tcpscope-capture", "");
    std::filesystem::copy_file(TCPSCOPE_CAPTURE_HELPER, helper);
    std::filesystem::permissions(helper, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                             std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                             std::filesystem::perms::others_exec);
    if (!capabilities.empty()) {
        REQUIRE(std::system(("setcap " + capabilities + "+eip " + helper.string()).c_str()) == 0);
    }
    return helper;
}

constexpr const char* kRecordingCapabilities = "cap_net_raw,cap_net_admin,cap_bpf,cap_perfmon,cap_dac_read_search";

// Why the recorder cannot be run by nobody here, or empty.
std::string whyNotAsNobody() {
    if (std::string why = test::whyNoSyscallRecorder(); !why.empty()) {
        return why;
    }
    if (std::system("command -v setcap >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1") != 0) {
        return "setcap or setpriv is missing (apt-get install libcap2-bin util-linux)";
    }
    return {};
}

}  // namespace

// In this process, and through the capture helper (--via-helper): the helper records the calls into
// its stream, and tcpscope-cli takes them out of it for the live verdicts, the report and the file.
TEST_CASE("tcpscope-cli capture --syscalls: the stalls confirmed from the calls live, and the file analyses the same",
          "[live][cli][recorder]") {
    if (const std::string why = test::whyNoSyscallRecorder(); !why.empty()) {
        WARN("test skipped: " << why);
        return;
    }
    const bool viaHelper = GENERATE(false, true);
    INFO("via the helper: " << viaHelper);
    const uint16_t port = test::livePort(viaHelper ? 420 : 400);
    const std::filesystem::path path = test::uniqueTempPath("live-syscalls", ".pcapng");
    const std::vector<std::string> more =
        viaHelper ? std::vector<std::string>{"--via-helper", "--helper", TCPSCOPE_CAPTURE_HELPER}
                  : std::vector<std::string>{};
    const nlohmann::json report = checkCaptureWithCalls(captureWithCalls(path, port, {}, more), path, port);
    CHECK(report["capture"]["live"]["via_helper"] == viaHelper);
    std::filesystem::remove(path);
}

// tcpscope-cli run by nobody cannot open the device nor load the recorder: it goes through a helper
// with the five capabilities on its own, and gets the same; without them, the helper's one line.
TEST_CASE("tcpscope-cli capture --syscalls as an unprivileged user: through the capture helper",
          "[live][cli][permissions][recorder]") {
    if (const std::string why = whyNotAsNobody(); !why.empty()) {
        WARN("test skipped: " << why);
        return;
    }
    const uint16_t port = test::livePort(430);
    const std::vector<std::string> asNobody{"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    // nobody writes the file in /tmp (its index beside it).
    const std::filesystem::path path = test::uniqueTempPath("live-syscalls-nobody", ".pcapng");
    {
        const std::filesystem::path bare = helperCopy("");
        const test::CommandResult refused =
            test::runCommand(captureWithCalls(path, port, asNobody, {"--helper", bare.string(), "--duration", "1"}));
        CHECK(refused.exitCode == 3);
        CHECK_THAT(refused.err,
                   Catch::Contains(std::string("sudo setcap ") + kRecordingCapabilities + "+eip " + bare.string()));
        std::filesystem::remove(bare);
        std::filesystem::remove(path);
    }
    const std::filesystem::path helper = helperCopy(kRecordingCapabilities);
    const nlohmann::json report =
        checkCaptureWithCalls(captureWithCalls(path, port, asNobody, {"--helper", helper.string()}), path, port);
    CHECK(report["capture"]["live"]["via_helper"] == true);
    std::filesystem::remove(path);
    std::filesystem::remove(helper);
}

// tcpscope-capture --syscalls run by nobody: with its five file capabilities it records the calls
// (and gives them all up once attached); without them, one line that says what to run.
TEST_CASE(
    "tcpscope-capture --syscalls as an unprivileged user: the calls recorded with its capabilities, one line "
    "without them",
    "[live][permissions][recorder]") {
    if (const std::string why = whyNotAsNobody(); !why.empty()) {
        WARN("test skipped: " << why);
        return;
    }
    const std::filesystem::path helper = helperCopy("");
    const std::filesystem::path path = test::uniqueTempPath("helper-syscalls", ".pcapng");
    const uint16_t port = test::livePort(410);
    const std::string asNobody = "setpriv --reuid=nobody --regid=nogroup --clear-groups ";
    const std::string command = asNobody + helper.string() + " -i lo --filter 'tcp port " + std::to_string(port) +
                                "' --syscalls --comm python3";
    {
        const test::CommandResult without = test::runCommand({"sh", "-c", command + " > /dev/null"});
        CHECK(without.exitCode != 0);
        CHECK_THAT(without.err,
                   Catch::Contains(std::string("sudo setcap ") + kRecordingCapabilities + "+eip " + helper.string()));
        CHECK(std::count(without.err.begin(), without.err.end(), '\n') == 1);
    }
    REQUIRE(std::system((std::string("setcap ") + kRecordingCapabilities + "+eip " + helper.string()).c_str()) == 0);
    // nobody writes to standard output; the shell (root) opens the file.
    test::ChildProcess capture({"sh", "-c", "exec " + command + " > " + path.string()});
    std::this_thread::sleep_for(std::chrono::seconds(2));
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "8"});
    REQUIRE(traffic.wait(30).exitCode == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    capture.sendSignal(SIGINT);
    const test::CommandResult recorded = capture.wait(20);
    INFO(recorded.err);
    CHECK(recorded.exitCode == 0);

    const test::CommandResult analysed = test::runCommand({TCPSCOPE_CLI, "analyze", path.string(), "--format", "json"});
    REQUIRE(analysed.ok());
    const nlohmann::json report = nlohmann::json::parse(analysed.out);
    REQUIRE(report["findings"].size() >= 1);
    for (const nlohmann::json& finding : report["findings"]) {
        CHECK(finding["evidence"]["strace"]["confirmed"].get<uint64_t>() >= 1);
    }
    std::filesystem::remove(path);
    std::filesystem::remove(helper);
}

}  // namespace tcpscope
