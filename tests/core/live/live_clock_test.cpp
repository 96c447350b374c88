// Stalls that only the passing of time completes, on a live capture of lo with real traffic: a
// server that stops reading holds its receive window closed for seconds, and the zero_window_stall
// shows as ongoing (growing, within a second of its threshold) while no packet ends it, through
// LiveSession and through `tcpscope-cli capture --format json`; the final report equals the
// analysis of the written pcapng. The recorded capture is then replayed with a clock to check the
// detector's onClock step by step. Needs CAP_NET_RAW and CAP_NET_ADMIN (CI runs as root).
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "analysis/capture_analysis.hpp"
#include "capture/capture_reader.hpp"
#include "core/live/child_process.hpp"
#include "core/live/live_test_support.hpp"
#include "detect/detector_set.hpp"
#include "live/live_session.hpp"
#include "live/pcap_capture.hpp"
#include "report/json_report.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

constexpr double kHoldSeconds = 5;       // probes back off to 1.6 s and 3.2 s gaps within it
constexpr double kZeroWindowMinMs = 10;  // the default threshold

int64_t wallClockNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// One call of the finding listener with a complete finding (a detector adds one, then writes its
// summary), with the wall-clock time it came.
struct Heard {
    int64_t wallNs;
    uint32_t id;
    FindingKind kind;
    int64_t tsNs;
    double durationMs;
    bool ongoing;
    bool provisional;
    bool withdrawn;
};

std::vector<nlohmann::json> jsonLines(const std::string& text) {
    std::vector<nlohmann::json> result;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);) {
        result.push_back(nlohmann::json::parse(line));
    }
    return result;
}

}  // namespace

TEST_CASE("live capture on lo: a receive window held closed shows as an ongoing zero_window_stall while it lasts",
          "[live][loopback][clock]") {
    if (!test::mayCapture()) {
        return;
    }
    const uint16_t port = test::livePort(7);
    const std::filesystem::path path = test::uniqueTempPath("live-held-window", ".pcapng");
    std::mutex mutex;
    std::vector<Heard> heard;
    LiveSessionOptions options;
    options.file = CaptureFileOptions{path.string()};
    options.onFinding = [&](const Finding& finding, bool /*isNew*/) {
        if (finding.summary.empty()) {
            return;
        }
        const std::lock_guard lock(mutex);
        heard.push_back(Heard{wallClockNs(), finding.id, finding.kind, finding.tsNs, finding.durationMs,
                              finding.ongoing, finding.provisional, finding.withdrawn});
    };
    LiveSession session(std::make_unique<PcapCapture>(
                            LiveCaptureOptions{"lo", "tcp port " + std::to_string(port), 262144, 4u << 20, false}),
                        std::move(options));
    session.start();
    test::ChildProcess traffic({"python3", test::kHeldWindow, std::to_string(port), std::to_string(kHoldSeconds)});
    REQUIRE(traffic.waitForOutput("closed", 10));
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    {
        // Halfway through the hold, no packet has ended the period: it is shown, and ongoing.
        const std::lock_guard lock(mutex);
        const auto shown = std::find_if(heard.begin(), heard.end(),
                                        [](const Heard& event) { return event.kind == FindingKind::ZeroWindowStall; });
        REQUIRE(shown != heard.end());
        CHECK(shown->ongoing);
        // Visible within one second of the moment it became a stall (closed for the threshold).
        const double lateMs = static_cast<double>(shown->wallNs - shown->tsNs) / 1e6 - kZeroWindowMinMs;
        CHECK(lateMs < 1000);
        CHECK(heard.back().ongoing);
        CHECK(heard.back().durationMs > 1500);
    }
    REQUIRE(traffic.wait(30).exitCode == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the last packets reach the analysis
    session.stop();
    REQUIRE(session.waitUntilEnded(std::chrono::seconds(5)));
    LiveSession::Result result = session.finish();
    CHECK(result.summary.analysisDropped == 0);

    std::vector<Heard> window;
    for (const Heard& event : heard) {
        if (event.kind == FindingKind::ZeroWindowStall) {
            window.push_back(event);
        }
    }
    REQUIRE(window.size() >= 2);
    // While the window was closed the finding grew at least every second, although the sender's
    // probes came 1.6 and 3.2 s apart: the clock, not the packets, moved it.
    for (size_t index = 1; index < window.size() && window[index - 1].ongoing; ++index) {
        INFO("event " << index << " after " << window[index - 1].durationMs << " ms closed");
        CHECK(window[index].wallNs - window[index - 1].wallNs < 1'000'000'000);
        if (window[index].ongoing) {
            CHECK(window[index].durationMs >= window[index - 1].durationMs);
        } else {  // the packets' final word: the clock may have run a few ms ahead of it
            CHECK(window[index].durationMs >= window[index - 1].durationMs - 50);
        }
    }
    CHECK_FALSE(window.back().ongoing);  // finalised by the window update
    CHECK(window.back().durationMs > kHoldSeconds * 1000 * 0.8);
    for (const Heard& event : window) {
        CHECK(event.id == window.front().id);
        CHECK_FALSE(event.withdrawn);
    }

    // The final report is the analysis of the written file.
    const CaptureAnalysis reopened = analyzeCaptures({path.string()}, AnalysisOptions{});
    const Json liveReport = analysisReportJson(result.analysis);
    const Json fileReport = analysisReportJson(reopened);
    CHECK(liveReport["flows"] == fileReport["flows"]);
    CHECK(liveReport["findings"] == fileReport["findings"]);
    REQUIRE(fileReport["findings"].size() == 1);
    CHECK(fileReport["findings"][0]["kind"] == "zero_window_stall");
    for (const Finding& finding : result.analysis.findings) {
        CHECK_FALSE(finding.ongoing);
    }

    SECTION("the recorded capture replayed with a clock: onClock step by step") {
        // Packets pushed in order, the clock ticking on a fixed grid of capture time between them
        // as the live analysis does (finer than its 250 ms, so that a tick always falls between
        // the zero window and the first probe, about 200 ms later).
        constexpr int64_t kTickNs = 50'000'000;
        AnalysisEngine engine;
        FindingLog log;
        const DetectorSet detectors(engine, DetectorOptions{}, log);
        const std::unique_ptr<CaptureReader> reader = CaptureReader::open(path.string());
        RawPacket packet;
        int64_t nextTickNs = 0;
        int64_t closedTsNs = 0;
        bool shownBeforeProbe = false;
        bool confirmed = false;
        while (reader->next(packet)) {
            while (nextTickNs != 0 && nextTickNs < packet.tsNs) {
                engine.advanceClock(nextTickNs);
                if (!log.all().empty() && !confirmed) {
                    const Finding& shown = log.all().front();
                    closedTsNs = shown.tsNs;
                    CHECK(shown.ongoing);
                    CHECK(shown.provisional);  // no packet has said anything yet
                    CHECK(shown.durationMs == Approx(static_cast<double>(nextTickNs - shown.tsNs) / 1e6));
                    if (!shownBeforeProbe) {  // the first tick after the threshold shows it
                        CHECK(nextTickNs - shown.tsNs < static_cast<int64_t>(kZeroWindowMinMs * 1e6) + kTickNs);
                    }
                    shownBeforeProbe = true;
                }
                nextTickNs += kTickNs;
            }
            engine.push(packet, 0);
            if (nextTickNs == 0) {
                nextTickNs = packet.tsNs + kTickNs;
            }
            if (!log.all().empty() && !log.all().front().provisional) {
                confirmed = true;  // the first probe (or the update) confirmed it
            }
        }
        engine.finish();
        engine.clearObservers();
        CHECK(shownBeforeProbe);
        CHECK(closedTsNs != 0);
        CaptureAnalysis replayed;
        replayed.inputs = reopened.inputs;
        replayed.findings = log.release();
        replayed.engine = std::make_unique<AnalysisEngine>();  // flows are compared above
        CHECK(analysisReportJson(replayed)["findings"] == fileReport["findings"]);
    }
    std::filesystem::remove(path);
}

TEST_CASE("tcpscope-cli capture --format json: an ongoing finding's lines while the window is held closed",
          "[live][cli][clock]") {
    if (!test::mayCapture()) {
        return;
    }
    const uint16_t port = test::livePort(8);
    const std::filesystem::path path = test::uniqueTempPath("live-cli-held-window", ".pcapng");
    test::ChildProcess capture({TCPSCOPE_CLI, "capture", "-i", "lo", "--filter", "tcp port " + std::to_string(port),
                                "--write", path.string(), "--format", "json"});
    REQUIRE(capture.waitForOutput("Ctrl-C to stop", 10, true));
    test::ChildProcess traffic({"python3", test::kHeldWindow, std::to_string(port), std::to_string(kHoldSeconds)});
    REQUIRE(traffic.waitForOutput("closed", 10));
    // Printed while the window is still closed: the traffic is not over yet.
    CHECK(capture.waitForOutput("\"ongoing\":true", 2));
    CHECK(traffic.outputSoFar().find("held_seconds") == std::string::npos);
    REQUIRE(traffic.wait(30).exitCode == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    capture.sendSignal(SIGINT);
    const test::CommandResult result = capture.wait(20);
    CHECK(result.exitCode == 0);
    const std::vector<nlohmann::json> lines = jsonLines(result.out);
    REQUIRE(lines.size() >= 3);

    // One finding, first shown ongoing, updated about once a second while it grew, then finalised.
    const nlohmann::json& first = lines.front();
    CHECK(first["event"] == "finding");
    CHECK(first["kind"] == "zero_window_stall");
    CHECK(first["ongoing"] == true);
    std::vector<double> ongoingMs{first["duration_ms"].get<double>()};
    for (size_t index = 1; index + 1 < lines.size(); ++index) {
        INFO(lines[index].dump());
        CHECK(lines[index]["id"] == first["id"]);
        CHECK(lines[index]["event"] == "finding_update");
        if (lines[index]["ongoing"] == true) {
            ongoingMs.push_back(lines[index]["duration_ms"].get<double>());
        }
    }
    CHECK(ongoingMs.size() >= 3);  // about one a second over the 5 s hold
    for (size_t index = 1; index < ongoingMs.size(); ++index) {
        CHECK(ongoingMs[index] > ongoingMs[index - 1]);
        CHECK(ongoingMs[index] - ongoingMs[index - 1] < 1600);  // 1 s between lines, plus a 250 ms tick
    }
    const nlohmann::json& ended = lines[lines.size() - 2];
    CHECK(ended["event"] == "finding_update");
    CHECK(ended["ongoing"] == false);
    CHECK(ended["duration_ms"].get<double>() > kHoldSeconds * 1000 * 0.8);

    // The report (the last line) is the analysis of the written file, finding for finding.
    const nlohmann::json report = lines.back();
    REQUIRE(report.contains("findings"));
    CHECK(report["findings"].size() == 1);
    const CaptureAnalysis reopened = analyzeCaptures({path.string()}, AnalysisOptions{});
    CHECK(report["findings"] == nlohmann::json::parse(analysisReportJson(reopened)["findings"].dump()));
    CHECK(report["findings"][0]["duration_ms"] == ended["duration_ms"]);
    std::filesystem::remove(path);
}

}  // namespace tcpscope
