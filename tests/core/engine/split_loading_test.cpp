// With a second core the loader tracks connections on its reading thread while the calling thread
// runs the detectors on the segments tracked before. A checkpoint (the GUI's partial results) must
// still see the engine and the findings at the same frame, as a one-thread analysis has them there,
// and a stopped load must leave no tracked segment the detectors did not see.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "capture/capture_reader.hpp"
#include "support/generated_capture.hpp"
#include "detect/detector_set.hpp"
#include "engine/worker_threads.hpp"

using namespace tcpscope;

namespace {

// What a checkpoint showed: the engine's counts and every finding as it was described then.
struct Seen {
    uint64_t frames = 0;
    uint64_t tcp = 0;
    size_t packets = 0;
    size_t connections = 0;
    uint32_t lastConnectionLastFrame = 0;
    std::vector<std::string> findings;
};

std::string describe(const Finding& finding) {
    return std::string(findingKindName(finding.kind)) + " " + std::to_string(finding.id) + " " +
           std::to_string(finding.tsNs) + " " + std::to_string(finding.durationMs) + " " +
           nlohmann::json(finding.frames).dump() + " " + finding.summary + " " + finding.evidence.dump();
}

Seen seenAt(const AnalysisEngine& engine, const FindingLog& log) {
    Seen seen;
    seen.frames = engine.counters().frames;
    seen.tcp = engine.counters().tcp;
    seen.packets = engine.packets().size();
    seen.connections = engine.connections().size();
    seen.lastConnectionLastFrame = seen.connections > 0 ? engine.connections().back().lastFrame : 0;
    for (const Finding& finding : log.all()) {
        seen.findings.push_back(describe(finding));
    }
    return seen;
}

// Counts the segments the observers were handed.
struct SegmentCounter final : SegmentObserver {
    void onSegment(const SegmentEvent& event) override {
        ++segments;
        lastFrame = event.frame;
    }
    uint64_t segments = 0;
    uint32_t lastFrame = 0;
};

}  // namespace

TEST_CASE("split loading: every checkpoint shows what a one-thread analysis has at the same frame", "[bench][engine]") {
    if (!secondThreadAllowed()) {
        WARN("one core (or TCPSCOPE_THREADS=1): the load is not split");
        return;
    }
    for (const bench::Workload workload : {bench::Workload::W1, bench::Workload::W3}) {
        const test::GeneratedCapture capture(test::smallWorkload(workload, 400'000), "split-checkpoints");
        CAPTURE(capture.path());
        std::vector<Seen> checkpoints;
        const CaptureAnalysis split = analyzeCaptures(
            {capture.path()}, AnalysisOptions{}, nullptr, nullptr,
            [&](const AnalysisCheckpoint& point) { checkpoints.push_back(seenAt(point.engine, point.log)); });
        // After the first batch, then after 2, 4, 8, ... more (and the batches the reader was ahead
        // by at each): 400,000 frames are 98 batches.
        REQUIRE(checkpoints.size() >= 4);

        // The same capture pushed frame by frame on this thread, stopped at each checkpoint's frame.
        AnalysisEngine engine;
        FindingLog log;
        const DetectorSet detectors(engine, DetectorOptions{}, log);
        const std::unique_ptr<CaptureReader> reader = CaptureReader::open(capture.path());
        RawPacket packet;
        for (const Seen& seen : checkpoints) {
            while (engine.counters().frames < seen.frames) {
                REQUIRE(reader->next(packet));
                engine.push(packet, 0);
            }
            CAPTURE(seen.frames);
            const Seen expected = seenAt(engine, log);
            CHECK(seen.tcp == expected.tcp);
            CHECK(seen.packets == expected.packets);
            CHECK(seen.connections == expected.connections);
            CHECK(seen.lastConnectionLastFrame == expected.lastConnectionLastFrame);
            REQUIRE(seen.findings.size() == expected.findings.size());
            for (size_t i = 0; i < seen.findings.size(); ++i) {
                REQUIRE(seen.findings[i] == expected.findings[i]);
            }
        }
        CHECK(split.engine->counters().frames == capture.stats().packets);
    }
}

TEST_CASE("split loading: a stopped load leaves no tracked segment the observers did not see", "[bench][engine]") {
    if (!secondThreadAllowed()) {
        WARN("one core (or TCPSCOPE_THREADS=1): the load is not split");
        return;
    }
    const test::GeneratedCapture capture(test::smallWorkload(bench::Workload::W1, 200'000), "split-stop");
    AnalysisEngine engine;
    SegmentCounter counter;
    engine.addObserver(&counter);
    StopToken stop;
    int checkpoints = 0;
    loadCaptures({capture.path()}, engine, nullptr, &stop, [&](const AnalysisEngine& atRest) {
        // At rest: the observers have seen every segment tracked so far.
        CHECK(counter.segments == atRest.counters().tcp);
        if (++checkpoints == 3) {
            stop.requestStop();
        }
    });
    REQUIRE(checkpoints == 3);
    CHECK(engine.counters().frames < capture.stats().packets);
    CHECK(counter.segments == engine.counters().tcp);
    CHECK(counter.segments == engine.packets().size());
    REQUIRE(engine.packets().size() > 0);
    CHECK(counter.lastFrame == engine.packets().frame(engine.packets().size() - 1));
}
