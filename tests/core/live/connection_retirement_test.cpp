// A live capture retires the connections that closed or went idle long ago, so that a capture of
// hours keeps only a compact record of each: here a real churn capture (samples/churn-exhaustion,
// 150 short connections over 61 s) replayed through the capture helper's pipe, with ages short
// enough for its minute.
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"
#include "live/helper_capture.hpp"
#include "live/live_session.hpp"
#include "report/json_report.hpp"
#include "support/packet_builder.hpp"

namespace tcpscope {
namespace {

const std::string kChurnCapture = TCPSCOPE_SOURCE_DIR "/samples/churn-exhaustion.pcap";

// A stand-in for tcpscope-capture that streams a recorded capture to its standard output, as the
// helper streams what it captures.
std::filesystem::path replayHelper(const std::string& capture) {
    const std::filesystem::path script = test::uniqueTempPath("replay-helper", ".sh");
    std::ofstream(script) << "#!/bin/sh\nexec cat '" << capture << "'\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
    return script;
}

AnalysisOptions shortAges() {
    AnalysisOptions options;
    options.detectors.timeWaitSeconds = 1;
    options.engine.retirement.closedAgeNs = 2'000'000'000;
    options.engine.retirement.idleAgeNs = 5'000'000'000;
    return options;
}

// The flows without their link to an earlier generation of the tuple (a retired tuple is
// forgotten: its next connection is not linked to it).
Json flowsWithoutReuse(const Json& report) {
    Json flows = report["flows"];
    for (Json& flow : flows) {
        flow.erase("reused");  // null when the flow reuses no tuple
        flow.erase("reuse");
    }
    return flows;
}

// The findings but port_reuse (which sees only the reuses of tuples not yet retired).
Json findingsButReuse(const Json& report) {
    Json findings = Json::array();
    for (const Json& finding : report["findings"]) {
        if (finding["kind"] != "port_reuse") {
            findings.push_back(finding);
        }
    }
    return findings;
}

}  // namespace

TEST_CASE("live capture: closed connections are retired while the report's totals stay those of the file",
          "[live][retirement]") {
    const std::filesystem::path helper = replayHelper(kChurnCapture);
    LiveSessionOptions options;
    options.analysis = shortAges();
    options.spillPacketIndex = false;
    LiveSession session(std::make_unique<HelperCapture>(helper.string(), LiveCaptureOptions{"lo", "", 262144, 4u << 20, false}),
                        options);
    session.start();
    REQUIRE(session.waitUntilEnded(std::chrono::seconds(30)));
    LiveSession::Result result = session.finish();
    std::filesystem::remove(helper);
    REQUIRE(result.summary.error.empty());
    REQUIRE(result.summary.analysisDropped == 0);

    const AnalysisEngine& live = *result.analysis.engine;
    CHECK(live.connections().size() == 150);
    // 100 connections in the first seconds, then none for a minute (the ports are exhausted), then
    // 50 in the last second: the first 100 are retired, and none of the last.
    CHECK(live.retiredConnections() == 100);
    CHECK(live.liveConnections() == 50);
    CHECK(result.summary.connectionsRetired == 100);

    const CaptureAnalysis file = analyzeCaptures({kChurnCapture}, shortAges());
    CHECK(file.engine->retiredConnections() == 0);
    const Json liveReport = analysisReportJson(result.analysis);
    const Json fileReport = analysisReportJson(file);
    CHECK(liveReport["capture"]["packets"] == fileReport["capture"]["packets"]);
    CHECK(liveReport["capture"]["connections"] == fileReport["capture"]["connections"]);
    CHECK(flowsWithoutReuse(liveReport) == flowsWithoutReuse(fileReport));
    const Json findings = findingsButReuse(liveReport);
    CHECK(findings == findingsButReuse(fileReport));
    CHECK(findings.size() == 2);  // time_wait_churn and port_exhaustion
}

}  // namespace tcpscope
