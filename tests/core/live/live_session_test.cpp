// Live capture on the loopback interface with real traffic: findings while the capture runs, the
// written pcapng giving the same analysis, a stop that wakes a blocked capture, the packet count,
// and the capture helper. Needs CAP_NET_RAW and CAP_NET_ADMIN (CI runs as root); skipped otherwise.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"
#include "core/live/child_process.hpp"
#include "core/live/live_test_support.hpp"
#include "live/capture_interface.hpp"
#include "live/helper_capture.hpp"
#include "live/live_error.hpp"
#include "live/live_report.hpp"
#include "live/live_session.hpp"
#include "live/pcap_capture.hpp"
#include "report/json_report.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

int64_t wallClockNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// What the finding listener saw, on the analysis thread.
struct SeenFindings {
    std::mutex mutex;
    std::vector<FindingKind> kinds;
    double firstStallLatencyMs = -1;  // from the packet that completed the first stall to the listener
};

std::unique_ptr<PacketSource> openLoopback(bool viaHelper, const std::string& filter) {
    const LiveCaptureOptions options{"lo", filter, 262144, 4u << 20, false};
    if (viaHelper) {
        return std::make_unique<HelperCapture>(TCPSCOPE_CAPTURE_HELPER, options);
    }
    return std::make_unique<PcapCapture>(options);
}

}  // namespace

TEST_CASE("interfaces: the loopback and the any device are listed with their flags", "[live]") {
    const std::vector<CaptureInterface> interfaces = listCaptureInterfaces();
    const auto loopback = std::find_if(interfaces.begin(), interfaces.end(),
                                       [](const CaptureInterface& interface) { return interface.name == "lo"; });
    REQUIRE(loopback != interfaces.end());
    CHECK(loopback->loopback);
    CHECK(loopback->up);
    CHECK(std::find(loopback->addresses.begin(), loopback->addresses.end(), "127.0.0.1") != loopback->addresses.end());
    CHECK(std::any_of(interfaces.begin(), interfaces.end(), [](const CaptureInterface& interface) {
        return interface.any && interface.name == "any";
    }));
}

TEST_CASE("live capture on lo: delayed-ACK stalls reported while capturing, the pcapng gives the same analysis",
          "[live][loopback]") {
    if (!test::mayCapture()) {
        return;
    }
    const bool viaHelper = GENERATE(false, true);
    INFO((viaHelper ? "through tcpscope-capture" : "libpcap in this process"));
    const uint16_t port = test::livePort(viaHelper ? 1 : 2);
    const std::filesystem::path path = test::uniqueTempPath("live-nagle", ".pcapng");

    SeenFindings seen;
    LiveSessionOptions options;
    options.file = CaptureFileOptions{path.string()};
    options.onFinding = [&seen](const Finding& finding, bool isNew) {
        if (!isNew) {
            return;
        }
        const std::lock_guard lock(seen.mutex);
        seen.kinds.push_back(finding.kind);
        if (finding.kind == FindingKind::DelayedAckStall && seen.firstStallLatencyMs < 0) {
            // The held segment (which completes the stall) left hold_ms after the small one.
            const auto heldTsNs = finding.tsNs + static_cast<int64_t>(finding.durationMs * 1e6);
            seen.firstStallLatencyMs = static_cast<double>(wallClockNs() - heldTsNs) / 1e6;
        }
    };
    LiveSession session(openLoopback(viaHelper, "tcp port " + std::to_string(port)), std::move(options));
    session.start();

    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "25"});
    const test::CommandResult trafficResult = traffic.wait(30);
    REQUIRE(trafficResult.exitCode == 0);
    // Still capturing: the findings came while packets were flowing.
    CHECK_FALSE(session.waitUntilEnded(std::chrono::milliseconds(0)));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the last packets reach the analysis
    {
        const std::lock_guard lock(seen.mutex);
        CHECK(std::count(seen.kinds.begin(), seen.kinds.end(), FindingKind::DelayedAckStall) >= 1);
        CHECK(seen.firstStallLatencyMs >= 0);
        CHECK(seen.firstStallLatencyMs < 1000);  // the promise: visible within one second
    }
    session.stop();
    REQUIRE(session.waitUntilEnded(std::chrono::seconds(5)));
    LiveSession::Result result = session.finish();

    const LiveCaptureSummary& summary = result.summary;
    CHECK(summary.error.empty());
    CHECK(summary.source.viaHelper == viaHelper);
    CHECK(summary.kernel.captured > 100);  // 25 exchanges of 4 segments, handshakes and closes
    CHECK(summary.written == summary.kernel.captured);
    CHECK(summary.analysisDropped == 0);
    CHECK(summary.files == std::vector<std::string>{path.string()});
    CHECK(result.analysis.engine->counters().frames == summary.kernel.captured);
    const nlohmann::ordered_json live = liveCaptureJson(summary);
    CHECK(live["dropped_by_kernel"].is_number_unsigned());
    CHECK(live["dropped_by_interface"].is_number_unsigned());
    CHECK(live["link_type"] == "EN10MB");  // Linux's loopback has Ethernet headers

    // The file on disk analyses to exactly the same connections and findings.
    const CaptureAnalysis reopened = analyzeCaptures({path.string()}, AnalysisOptions{});
    const Json liveReport = analysisReportJson(result.analysis);
    const Json fileReport = analysisReportJson(reopened);
    CHECK(liveReport["flows"] == fileReport["flows"]);
    CHECK(liveReport["findings"] == fileReport["findings"]);
    CHECK(liveReport["findings"].size() >= 1);
    std::filesystem::remove(path);
}

TEST_CASE("live capture: stop wakes a capture blocked waiting for packets", "[live][loopback]") {
    if (!test::mayCapture()) {
        return;
    }
    const bool viaHelper = GENERATE(false, true);
    INFO((viaHelper ? "through tcpscope-capture" : "libpcap in this process"));
    // A port nothing uses: pcap_dispatch blocks with no packet to deliver.
    LiveSession session(openLoopback(viaHelper, "tcp port " + std::to_string(test::livePort(3))), LiveSessionOptions{});
    session.start();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK_FALSE(session.waitUntilEnded(std::chrono::milliseconds(0)));
    session.stop();
    CHECK(session.waitUntilEnded(std::chrono::seconds(5)));  // without a wake-up it would wait for a packet forever
    const LiveSession::Result result = session.finish();
    CHECK(result.summary.error.empty());
    CHECK(result.summary.kernel.captured == 0);
}

TEST_CASE("live capture: --count stops after exactly that many packets, in the file and in the analysis",
          "[live][loopback]") {
    if (!test::mayCapture()) {
        return;
    }
    const uint16_t port = test::livePort(4);
    const std::filesystem::path path = test::uniqueTempPath("live-count", ".pcapng");
    LiveSessionOptions options;
    options.file = CaptureFileOptions{path.string()};
    options.maxPackets = 10;
    LiveSession session(openLoopback(false, "tcp port " + std::to_string(port)), std::move(options));
    session.start();
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "10"});
    REQUIRE(session.waitUntilEnded(std::chrono::seconds(20)));
    traffic.wait(30);
    const LiveSession::Result result = session.finish();
    CHECK(result.summary.written == 10);
    CHECK(result.analysis.engine->counters().frames == 10);
    CHECK(analyzeCaptures({path.string()}, AnalysisOptions{}).engine->counters().frames == 10);
    std::filesystem::remove(path);
}

TEST_CASE("live capture: an invalid capture filter is a clear error before anything starts", "[live]") {
    if (!test::mayCapture()) {
        return;
    }
    const bool viaHelper = GENERATE(false, true);
    try {
        openLoopback(viaHelper, "tcp port banana");
        FAIL("no error");
    } catch (const LiveCaptureError& error) {
        CHECK(error.kind() == LiveErrorKind::BadFilter);
        CHECK_THAT(error.what(), Catch::Contains("tcp port banana"));
    }
}

}  // namespace tcpscope
