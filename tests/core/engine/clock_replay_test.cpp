// The recorded samples replayed as a live capture would analyse them, the capture clock ticking
// between packets: whatever ongoing and provisional findings the clock showed, the final findings
// are exactly those of the file's analysis (the promise of `capture --write`: the file reopens
// with the same results).
#include <filesystem>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"
#include "capture/capture_reader.hpp"
#include "detect/detector_set.hpp"
#include "report/json_report.hpp"

using namespace tcpscope;

namespace {

struct Replay {
    CaptureAnalysis analysis;
    size_t ongoingSeen = 0;  // listener calls for an ongoing finding
    size_t withdrawn = 0;
};

// Every packet of `path` in order, advanceClock every `tickNs` of capture time between them.
Replay replayWithClock(const std::string& path, int64_t tickNs) {
    Replay replay;
    replay.analysis.engine = std::make_unique<AnalysisEngine>();
    AnalysisEngine& engine = *replay.analysis.engine;
    FindingLog log;
    log.setListener([&replay](const Finding& finding, bool /*isNew*/) {
        replay.ongoingSeen += finding.ongoing ? 1 : 0;
        replay.withdrawn += finding.withdrawn ? 1 : 0;
    });
    const DetectorSet detectors(engine, DetectorOptions{}, log);
    const std::unique_ptr<CaptureReader> reader = CaptureReader::open(path);
    RawPacket packet;
    int64_t nextTickNs = 0;
    while (reader->next(packet)) {
        for (; nextTickNs != 0 && nextTickNs < packet.tsNs; nextTickNs += tickNs) {
            engine.advanceClock(nextTickNs);
        }
        engine.push(packet, 0);
        if (nextTickNs == 0) {
            nextTickNs = packet.tsNs + tickNs;  // a fixed grid from the first packet, as the live clock
        }
    }
    engine.finish();
    engine.clearObservers();
    replay.analysis.findings = log.release();
    replay.analysis.populations = log.releasePopulations();
    return replay;
}

}  // namespace

TEST_CASE("samples replayed with a ticking clock end with the findings of the file's analysis", "[engine][clock]") {
    const std::string sample = GENERATE("backlog-overflow.pcap", "churn-exhaustion.pcap", "http-close.pcap",
                                        "http-keepalive.pcap", "http-tw-reuse.pcap", "port-reuse-collision.pcap",
                                        "proxy-nagle.pcap", "proxy-nagle-late.pcap", "proxy-nagle-ttt.pcapng");
    const std::string path = TCPSCOPE_SOURCE_DIR "/samples/" + sample;
    INFO(sample);
    const CaptureAnalysis file = analyzeCaptures({path}, AnalysisOptions{});
    // 50 ms ticks: many more than a live capture's 250 ms, so that more stalls are seen open.
    Replay live = replayWithClock(path, 50'000'000);
    live.analysis.inputs = file.inputs;
    const Json fromFile = analysisReportJson(file);
    const Json fromLive = analysisReportJson(live.analysis);
    CHECK(fromLive["findings"] == fromFile["findings"]);
    CHECK(fromLive["flows"] == fromFile["flows"]);
    for (const Finding& finding : live.analysis.findings) {
        CHECK_FALSE(finding.ongoing);
        CHECK_FALSE(finding.provisional);
        CHECK_FALSE(finding.withdrawn);
    }
    if (sample == "backlog-overflow.pcap") {
        CHECK(live.ongoingSeen > 0);  // its SYNs waited seconds for the next retransmission
    }
}
