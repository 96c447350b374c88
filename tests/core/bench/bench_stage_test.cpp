// The benchmark's breakdown of where the time goes (run_benchmark.sh --stages, tcpscope-cli
// --bench-stage) stops the analysis after decoding, or after tracking the connections with no
// detector. Each stage must do all of its own work and none of the next one, on one thread and on two.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "analysis/capture_analysis.hpp"
#include "support/generated_capture.hpp"

using namespace tcpscope;

namespace {

CaptureAnalysis analyseUpTo(const std::string& path, bool tracking, bool detecting, bool oneThread) {
    if (oneThread) {
        ::setenv("TCPSCOPE_THREADS", "1", 1);  // NOLINT(concurrency-mt-unsafe): no other thread runs yet
    } else {
        ::unsetenv("TCPSCOPE_THREADS");  // NOLINT(concurrency-mt-unsafe)
    }
    AnalysisOptions options;
    options.engine.trackConnections = tracking;
    options.runDetectors = detecting;
    CaptureAnalysis analysis = analyzeCaptures({path}, options);
    ::unsetenv("TCPSCOPE_THREADS");  // NOLINT(concurrency-mt-unsafe)
    return analysis;
}

}  // namespace

TEST_CASE("the benchmark's stages stop the analysis after decoding or after tracking", "[bench][stage]") {
    // Enough packets for many batches of the reading thread, with findings of several kinds.
    const test::GeneratedCapture capture(test::smallWorkload(bench::Workload::W1, 60'000));
    const bool oneThread = GENERATE(true, false);
    CAPTURE(oneThread);

    const CaptureAnalysis full = analyseUpTo(capture.path(), true, true, oneThread);
    const CaptureAnalysis decoded = analyseUpTo(capture.path(), false, false, oneThread);
    const CaptureAnalysis tracked = analyseUpTo(capture.path(), true, false, oneThread);
    REQUIRE(full.engine->counters().frames == capture.stats().packets);
    REQUIRE(full.engine->connections().size() > 1000);
    REQUIRE(full.findings.size() > 10);

    // Decoding: every frame read, counted and decoded as in the full analysis; nothing tracked.
    CHECK(decoded.engine->counters().frames == full.engine->counters().frames);
    CHECK(decoded.engine->counters().tcp == full.engine->counters().tcp);
    CHECK(decoded.engine->counters().malformed == full.engine->counters().malformed);
    CHECK(decoded.engine->connections().empty());
    CHECK(decoded.findings.empty());

    // Tracking: the connections of the full analysis, with their sequence analysis; no finding.
    CHECK(tracked.engine->counters().tcp == full.engine->counters().tcp);
    REQUIRE(tracked.engine->connections().size() == full.engine->connections().size());
    for (size_t i = 0; i < full.engine->connections().size(); ++i) {
        const Connection& a = tracked.engine->connections()[i];
        const Connection& b = full.engine->connections()[i];
        REQUIRE(a.client == b.client);
        REQUIRE(a.server == b.server);
        REQUIRE(a.state == b.state);
        REQUIRE(a.lastFrame == b.lastFrame);
    }
    CHECK(tracked.findings.empty());
    CHECK(tracked.populations.empty());
}
