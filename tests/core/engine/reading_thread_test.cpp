// With a second core the loader reads, decodes and tracks on a reading thread and runs the detectors
// on the calling one. The results must be exactly those of the one-thread load (TCPSCOPE_THREADS=1):
// same counters, connections, packet index and findings, on generated captures of many batches and
// on merged real samples; and one thread a run of frames at a time as frame by frame.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <sstream>

#include "analysis/capture_analysis.hpp"
#include "support/generated_capture.hpp"
#include "report/json_report.hpp"

using namespace tcpscope;

namespace {

// `filter`: a filter expression makes the load go frame by frame on one thread (the filter reads
// each frame's bytes), where without one it goes a run of frames at a time.
CaptureAnalysis analyse(const std::vector<std::string>& paths, bool oneThread, const std::string& filter = {}) {
    if (oneThread) {
        ::setenv("TCPSCOPE_THREADS", "1", 1);  // NOLINT(concurrency-mt-unsafe): no other thread runs yet
    } else {
        ::unsetenv("TCPSCOPE_THREADS");  // NOLINT(concurrency-mt-unsafe)
    }
    LoadProgress progress;
    uint64_t checkpoints = 0;
    AnalysisOptions options;
    options.engine.filter = filter;
    CaptureAnalysis analysis = analyzeCaptures(paths, options, &progress, nullptr,
                                               [&](const AnalysisCheckpoint&) { ++checkpoints; });
    ::unsetenv("TCPSCOPE_THREADS");  // NOLINT(concurrency-mt-unsafe)
    CHECK(progress.finished);
    CHECK(progress.frames == analysis.engine->counters().frames);
    // Every 4096 frames on one thread; on two, at gaps that double from one batch (but none once the
    // reading thread has read everything: the end comes sooner).
    const uint64_t full = analysis.engine->counters().frames / 4096;
    if (oneThread) {
        CHECK(checkpoints >= full);
    }
    CHECK(checkpoints <= full + 1);
    return analysis;
}

void requireSameResults(const CaptureAnalysis& threaded, const CaptureAnalysis& single) {
    const AnalysisEngine& a = *threaded.engine;
    const AnalysisEngine& b = *single.engine;
    REQUIRE(a.counters().frames == b.counters().frames);
    REQUIRE(a.counters().tcp == b.counters().tcp);
    REQUIRE(a.counters().notTcp == b.counters().notTcp);
    REQUIRE(a.counters().framesByLinkType == b.counters().framesByLinkType);
    REQUIRE(a.packetComments() == b.packetComments());
    REQUIRE(a.connections().size() == b.connections().size());
    for (size_t i = 0; i < a.connections().size(); ++i) {
        const Connection& x = a.connections()[i];
        const Connection& y = b.connections()[i];
        REQUIRE(x.client == y.client);
        REQUIRE(x.server == y.server);
        REQUIRE(x.lastFrame == y.lastFrame);
        REQUIRE(x.state == y.state);
        REQUIRE(x.from(Side::Client).payloadBytes == y.from(Side::Client).payloadBytes);
        REQUIRE(x.from(Side::Server).retransmittedBytes == y.from(Side::Server).retransmittedBytes);
    }
    REQUIRE(a.packets().size() == b.packets().size());
    for (size_t i = 0; i < a.packets().size(); ++i) {
        const IndexedPacket x = a.packets().at(i);
        const IndexedPacket y = b.packets().at(i);
        REQUIRE(x.frame == y.frame);
        REQUIRE(x.tsNs == y.tsNs);
        REQUIRE(x.recordOffset == y.recordOffset);
        REQUIRE(x.fileIndex == y.fileIndex);
        REQUIRE(x.connection == y.connection);
        REQUIRE(x.analysis == y.analysis);
    }
    REQUIRE(threaded.findings.size() == single.findings.size());
    for (size_t i = 0; i < threaded.findings.size(); ++i) {
        REQUIRE(threaded.findings[i].kind == single.findings[i].kind);
        REQUIRE(threaded.findings[i].frames == single.findings[i].frames);
        REQUIRE(threaded.findings[i].summary == single.findings[i].summary);
        REQUIRE(threaded.findings[i].evidence == single.findings[i].evidence);
    }
    for (size_t i = 0; i < threaded.inputs.size(); ++i) {
        REQUIRE(threaded.inputs[i].frames == single.inputs[i].frames);
        REQUIRE(threaded.inputs[i].bytes == single.inputs[i].bytes);
    }
}

// The JSON report of `analysis`, its flows formatted on one thread or (with a second core) two.
std::string reportText(const CaptureAnalysis& analysis, bool oneThread) {
    if (oneThread) {
        ::setenv("TCPSCOPE_THREADS", "1", 1);  // NOLINT(concurrency-mt-unsafe): no other thread runs yet
    }
    std::ostringstream text;
    writeAnalysisReportJson(text, analysis);
    ::unsetenv("TCPSCOPE_THREADS");  // NOLINT(concurrency-mt-unsafe)
    return text.str();
}

}  // namespace

TEST_CASE("the reading thread gives the one-thread results on generated captures", "[bench][engine]") {
    for (const bench::Workload workload : {bench::Workload::W1, bench::Workload::W3}) {
        const test::GeneratedCapture capture(test::smallWorkload(workload, 30'000), "threads");
        CAPTURE(capture.path());
        const CaptureAnalysis threaded = analyse({capture.path()}, false);
        const CaptureAnalysis single = analyse({capture.path()}, true);
        REQUIRE(threaded.engine->counters().frames == capture.stats().packets);
        requireSameResults(threaded, single);
    }
}

TEST_CASE("one thread gives the same results a run of frames at a time as frame by frame", "[bench][engine]") {
    for (const bench::Workload workload : {bench::Workload::W1, bench::Workload::W3}) {
        const test::GeneratedCapture capture(test::smallWorkload(workload, 30'000), "runs");
        CAPTURE(capture.path());
        const CaptureAnalysis inRuns = analyse({capture.path()}, true);
        const CaptureAnalysis frameByFrame = analyse({capture.path()}, true, "tcp or not tcp");
        REQUIRE(frameByFrame.engine->counters().filteredOut == 0);
        REQUIRE(!inRuns.findings.empty());
        requireSameResults(inRuns, frameByFrame);
    }
}

TEST_CASE("the reading thread gives the one-thread results on merged pcap and pcapng samples", "[bench][engine]") {
    const std::string samples = std::string(TCPSCOPE_SOURCE_DIR) + "/samples/";
    const std::vector<std::string> paths{samples + "http-close.pcap", samples + "proxy-nagle-ttt.pcapng",
                                         samples + "http-tw-reuse.pcap"};
    const CaptureAnalysis threaded = analyse(paths, false);
    const CaptureAnalysis single = analyse(paths, true);
    requireSameResults(threaded, single);
}

TEST_CASE("the JSON report with flows formatted on two threads is the one-thread report byte for byte",
          "[bench][report]") {
    // W3 opens a connection per packet or two: many chunks of 4096 flows, shared with the helper
    // thread as each is free (which thread takes which chunk varies from run to run: several runs).
    const test::GeneratedCapture capture(test::smallWorkload(bench::Workload::W3, 30'000), "report-threads");
    const CaptureAnalysis analysis = analyse({capture.path()}, true);
    REQUIRE(analysis.engine->connections().size() > 3 * 4096);
    const std::string oneThread = reportText(analysis, true);
    for (int run = 0; run < 20; ++run) {
        const std::string twoThreads = reportText(analysis, false);
        REQUIRE(twoThreads.size() == oneThread.size());
        REQUIRE(twoThreads == oneThread);
    }
    // The one-line layout of tcpscope-cli capture's report, its flows also formatted on two threads.
    std::ostringstream compact;
    {
        JsonStreamWriter writer(compact, JsonStreamWriter::Compact{});
        writeAnalysisReportJson(writer, analysis, nullptr, Json::object());
    }
    REQUIRE(compact.str() == Json::parse(oneThread).dump());
}
