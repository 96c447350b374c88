// The benchmark's breakdown of where the time goes (run_benchmark.sh --stages, tcpscope-bench-stage)
// reads and decodes only, or also tracks the connections with no detector. Each stage must do all of
// its own work and none of the next one, as the full analysis does it, on one thread and on two.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "analysis/capture_analysis.hpp"
#include "bench/stage_runner.hpp"
#include "support/generated_capture.hpp"

using namespace tcpscope;

namespace {

void checkStages(const std::vector<std::string>& paths) {
    const CaptureAnalysis full = analyzeCaptures(paths, {});
    const FrameCounters& counters = full.engine->counters();
    const bench::StageCounts decoded = bench::runStage(paths, bench::Stage::Decode);
    const bench::StageCounts tracked = bench::runStage(paths, bench::Stage::Track);

    // Decoding: every frame read and decoded, copies recognised as the analysis does; nothing tracked.
    CHECK(decoded.frames == counters.frames);
    CHECK(decoded.tcp == counters.tcp);
    CHECK(decoded.malformed == counters.malformed);
    CHECK(decoded.duplicates == counters.duplicates);
    CHECK(decoded.connections == 0);

    // Tracking: the connections of the full analysis.
    CHECK(tracked.frames == counters.frames);
    CHECK(tracked.tcp == counters.tcp);
    CHECK(tracked.duplicates == counters.duplicates);
    CHECK(tracked.connections == full.engine->connections().size());
}

std::string sample(const std::string& name) {
    return (std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name).string();
}

}  // namespace

TEST_CASE("the benchmark's stages stop the analysis after decoding or after tracking", "[bench][stage]") {
    // Enough packets for many batches of the reading thread, with findings of several kinds.
    const test::GeneratedCapture capture(test::smallWorkload(bench::Workload::W1, 60'000));
    const bool oneThread = GENERATE(true, false);
    CAPTURE(oneThread);
    if (oneThread) {
        ::setenv("TCPSCOPE_THREADS", "1", 1);  // NOLINT(concurrency-mt-unsafe): no other thread runs yet
    }
    const CaptureAnalysis full = analyzeCaptures({capture.path()}, {});
    REQUIRE(full.engine->counters().frames == capture.stats().packets);
    REQUIRE(full.engine->connections().size() > 1000);
    REQUIRE(full.findings.size() > 10);
    checkStages({capture.path()});
    ::unsetenv("TCPSCOPE_THREADS");  // NOLINT(concurrency-mt-unsafe)
}

TEST_CASE("the benchmark's decoding stage merges files and leaves copies out as the analysis does",
          "[bench][stage]") {
    // A capture with every packet twice (tcpdump -i any on a veth pair), and two files merged in time.
    const std::vector<std::string> duplicated = {sample("rtt/rtt-duplicated-any.pcap")};
    REQUIRE(analyzeCaptures(duplicated, {}).engine->counters().duplicates > 0);
    checkStages(duplicated);
    checkStages({sample("rtt/rtt-path-mtu-client.pcap"), sample("rtt/rtt-path-mtu-server.pcap")});
}
