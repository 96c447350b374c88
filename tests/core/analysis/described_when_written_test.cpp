// tcpscope-cli's JSON leaves each finding's summary, frames and evidence to be written as the report
// writes it (AnalysisOptions::describeWhenWritten), so that they are never all in memory at once.
// The report must be the same, byte for byte, as with every finding described at the end of the
// load, and what is read before the findings are written (their durations and severities, for the
// flows) must already be right.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "analysis/capture_analysis.hpp"
#include "support/generated_capture.hpp"
#include "report/json_report.hpp"

using namespace tcpscope;

namespace {

std::string analysisReport(const CaptureAnalysis& analysis) {
    std::ostringstream text;
    writeAnalysisReportJson(text, analysis);
    return text.str();
}

std::string flowsReport(const CaptureAnalysis& analysis) {
    std::ostringstream text;
    writeFlowsReportJson(text, analysis);
    return text.str();
}

void checkSameAsDescribedAtOnce(const std::string& path) {
    const CaptureAnalysis atOnce = analyzeCaptures({path}, AnalysisOptions{});
    AnalysisOptions deferred;
    deferred.describeWhenWritten = true;
    const CaptureAnalysis whenWritten = analyzeCaptures({path}, deferred);
    REQUIRE(atOnce.authors == nullptr);
    REQUIRE(whenWritten.authors != nullptr);
    REQUIRE(whenWritten.findings.size() == atOnce.findings.size());

    size_t leftToDescribe = 0;
    for (size_t i = 0; i < atOnce.findings.size(); ++i) {
        const Finding& expected = atOnce.findings[i];
        const Finding& measured = whenWritten.findings[i];
        CAPTURE(i, expected.kind);
        CHECK(measured.kind == expected.kind);
        CHECK(measured.connection == expected.connection);
        CHECK(measured.tsNs == expected.tsNs);
        CHECK(measured.durationMs == expected.durationMs);
        CHECK(measured.severity == expected.severity);
        leftToDescribe += measured.summary.empty() ? 1 : 0;

        Finding described;
        const Finding& complete = whenWritten.completeFinding(i, described);
        CHECK(complete.summary == expected.summary);
        CHECK(complete.frames == expected.frames);
        CHECK(complete.evidence == expected.evidence);
    }
    CHECK(leftToDescribe > 0);  // the deferral is real: some finding was not described at the load's end

    CHECK(analysisReport(whenWritten) == analysisReport(atOnce));
    CHECK(flowsReport(whenWritten) == flowsReport(atOnce));
}

}  // namespace

TEST_CASE("findings described as they are written give the report of findings described at once",
          "[analysis][report][json]") {
    SECTION("each sample with findings whose detector describes them") {
        const std::string sample = GENERATE(as<std::string>{}, "proxy-nagle.pcap", "churn-exhaustion.pcap",
                                            "port-reuse-collision.pcap", "http-tw-reuse.pcap");
        CAPTURE(sample);
        checkSameAsDescribedAtOnce(TCPSCOPE_SOURCE_DIR "/samples/" + sample);
    }
    SECTION("a generated W1 capture: every kind at once, more findings than a chunk of the report") {
        const test::GeneratedCapture capture(test::smallWorkload(bench::Workload::W1, 40'000), "w1-described");
        checkSameAsDescribedAtOnce(capture.path());
    }
}
