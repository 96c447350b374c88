// investigate() is how tcpscope-cli and the GUI's loader run an investigation: the analysis of the
// captures (or of several capture points), then the strace logs aligned and the findings confirmed.
// It must give what those steps give by hand, and keep the analysis when a log cannot be read.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "align/stall_confirmation.hpp"
#include "capture/capture_error.hpp"
#include "investigation/investigation.hpp"

using namespace tcpscope;

namespace {

std::string sample(const std::string& name) {
    return (std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name).string();
}

size_t verdicts(const CaptureAnalysis& analysis) {
    size_t count = 0;
    for (const Finding& finding : analysis.findings) {
        count += analysis.enrichments.of(finding.id).straceVerdicts.size();
    }
    return count;
}

}  // namespace

TEST_CASE("an investigation aligns the strace log and confirms the stalls, as the steps by hand do",
          "[investigation]") {
    InvestigationInputs inputs;
    inputs.captures = {sample("proxy-nagle.pcap")};
    inputs.straceLogs = {sample("proxy-nagle.strace")};
    // What a caller that only writes the findings would ask for: the logs need more, and get it.
    inputs.options.engine.keepPacketIndex = false;
    inputs.options.describeWhenWritten = true;
    const Investigation investigation = investigate(inputs);
    REQUIRE(investigation.straceProblem.empty());
    REQUIRE(investigation.alignment);
    CHECK_FALSE(investigation.points);
    CHECK(investigation.sightings == nullptr);
    CHECK(investigation.analysis.authors == nullptr);  // every finding described, then confirmed

    AnalysisOptions options;
    options.engine.keepPacketIndex = true;
    CaptureAnalysis byHand = analyzeCaptures(inputs.captures, options);
    const StraceAlignment alignment = loadStraceLogs(inputs.straceLogs, byHand, {});
    confirmFindingsWithSyscalls(byHand, alignment);
    REQUIRE(verdicts(byHand) > 0);
    CHECK(verdicts(investigation.analysis) == verdicts(byHand));
    REQUIRE(investigation.analysis.findings.size() == byHand.findings.size());
    for (size_t i = 0; i < byHand.findings.size(); ++i) {
        CHECK(investigation.analysis.findings[i].summary == byHand.findings[i].summary);
    }
    CHECK(investigation.alignment->logs.size() == alignment.logs.size());
}

TEST_CASE("a strace log that cannot be read leaves the analysis standing, and says why", "[investigation]") {
    InvestigationInputs inputs;
    inputs.captures = {sample("proxy-nagle.pcap")};
    const Investigation alone = investigate(inputs);
    inputs.straceLogs = {sample("no-such-log.strace")};
    const Investigation investigation = investigate(inputs);
    CHECK_FALSE(investigation.alignment);
    CHECK_THAT(investigation.straceProblem, Catch::Contains("no-such-log.strace"));
    CHECK(investigation.analysis.findings.size() == alone.analysis.findings.size());
    CHECK(investigation.analysis.findings.size() > 0);
    CHECK(verdicts(investigation.analysis) == 0);
}

TEST_CASE("a strace log of another capture is a mismatch: the analysis stands without its calls", "[investigation]") {
    InvestigationInputs inputs;
    inputs.captures = {sample("proxy-nagle.pcap")};
    inputs.straceLogs = {sample("proxy-nodelay.strace")};  // the same proxy, another run
    const Investigation investigation = investigate(inputs);
    CHECK(investigation.straceProblem.empty());
    REQUIRE(investigation.straceMismatch);
    CHECK_THAT(investigation.straceMismatch->reason, Catch::StartsWith(sample("proxy-nodelay.strace") + ": "));
    CHECK_FALSE(investigation.alignment);
    CHECK(verdicts(investigation.analysis) == 0);
    CHECK_FALSE(investigation.analysis.findings.empty());
}

TEST_CASE("a capture that cannot be read is an error of the investigation", "[investigation]") {
    InvestigationInputs inputs;
    inputs.captures = {sample("no-such-capture.pcap")};
    CHECK_THROWS_AS(investigate(inputs), CaptureError);
}

TEST_CASE("a stopped investigation leaves the strace logs unread", "[investigation]") {
    InvestigationInputs inputs;
    inputs.captures = {sample("proxy-nagle.pcap")};
    inputs.straceLogs = {sample("proxy-nagle.strace")};
    StopToken stop;
    stop.requestStop();
    const Investigation investigation = investigate(inputs, nullptr, &stop);
    CHECK_FALSE(investigation.alignment);
    CHECK(investigation.straceProblem.empty());
}

TEST_CASE("an investigation of capture points is their analysis, with the points and sightings", "[investigation]") {
    const auto rtt = [](const std::string& point) { return sample("rtt/rtt-nagle-proxy-" + point + ".pcap"); };
    InvestigationInputs inputs;
    inputs.points = {{"client", {rtt("client")}}, {"proxy", {rtt("proxy")}}, {"server", {rtt("server")}}};
    const Investigation investigation = investigate(inputs);
    const PointsAnalysis points = analyzePoints(inputs.points, inputs.options);
    REQUIRE(investigation.points);
    CHECK(investigation.points->points.size() == 3);
    CHECK(investigation.points->hops.size() == points.summary.hops.size());
    CHECK(investigation.sightings != nullptr);
    REQUIRE(investigation.analysis.findings.size() == points.analysis.findings.size());
    CHECK(investigation.analysis.engine->counters().frames == points.analysis.engine->counters().frames);
}

TEST_CASE("a proxy that listens on one address and connects from another is one incident with capture points",
          "[investigation][incident]") {
    // The proxy accepts on 127.1.1.2:3307 and connects onward from 127.1.2.1: one capture alone cannot
    // tell that these are one host, the proxy's own capture point can.
    const auto rtt = [](const std::string& point) { return sample("rtt/rtt-nagle-proxy-" + point + ".pcap"); };
    InvestigationInputs inputs;
    inputs.points = {{"client", {rtt("client")}}, {"proxy", {rtt("proxy")}}, {"server", {rtt("server")}}};
    const Investigation investigation = investigate(inputs);
    size_t nagle = 0;
    for (const Finding& finding : investigation.analysis.findings) {
        nagle += finding.kind == FindingKind::DelayedAckStall ? 1 : 0;
    }
    REQUIRE(nagle == 2);
    size_t proxies = 0;
    for (const Incident& incident : investigation.incidents) {
        if (incident.scope == IncidentScope::Process) {
            ++proxies;
            CHECK(incident.findings.size() == 2);
        }
    }
    CHECK(proxies == 1);

    InvestigationInputs merged;  // the same files as one capture: nothing says the two addresses are one host
    merged.captures = {rtt("proxy")};
    const Investigation alone = investigate(merged);
    size_t aloneProxies = 0;
    for (const Incident& incident : alone.incidents) {
        aloneProxies += incident.scope == IncidentScope::Process ? 1 : 0;
    }
    CHECK(aloneProxies == 2);
}
