// tcpscope-cli capture --syscalls: the socket calls of the traffic's processes recorded during the
// live capture, the stalls confirmed from them in the live report, and the written file analysed to
// the same report. Needs root, BPF and tracefs: skips saying why.
#include <signal.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/live/child_process.hpp"
#include "core/live/live_test_support.hpp"
#include "support/packet_builder.hpp"
#include "support/recorder_check.hpp"

namespace tcpscope {

TEST_CASE("tcpscope-cli capture --syscalls: the stalls confirmed from the calls live, and the file analyses the same",
          "[live][cli][recorder]") {
    if (const std::string why = test::whyNoSyscallRecorder(); !why.empty()) {
        WARN("test skipped: " << why);
        return;
    }
    const uint16_t port = test::livePort(400);
    const std::filesystem::path path = test::uniqueTempPath("live-syscalls", ".pcapng");
    test::ChildProcess capture({TCPSCOPE_CLI, "capture", "-i", "lo", "--filter", "tcp port " + std::to_string(port),
                                "--write", path.string(), "--format", "json", "--syscalls", "--comm", "python3"});
    REQUIRE(capture.waitForOutput("Ctrl-C to stop", 20, true));
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "8"});
    REQUIRE(traffic.wait(30).exitCode == 0);
    CHECK(capture.waitForOutput("\"event\":\"finding\"", 5));
    capture.sendSignal(SIGINT);
    const test::CommandResult result = capture.wait(20);
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    const nlohmann::json report = nlohmann::json::parse(test::lastLine(result.out));

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
    std::filesystem::remove(path);
}

}  // namespace tcpscope
