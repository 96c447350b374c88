// Retirement on a churn of thousands of connections (W1: short connections interleaved, with every
// trouble mixed in): the memory of the connection table stays that of the connections alive,
// while every connection keeps its record for the report, and the detectors free their state.
#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"
#include "support/generated_capture.hpp"
#include "detect/syn_backlog_detector.hpp"
#include "support/detector_run.hpp"

using tcpscope::bench::Workload;
using tcpscope::test::GeneratedCapture;
using tcpscope::test::smallWorkload;

namespace {

// The sequence states the connection table holds at the last checkpoint of the load (the end of the
// analysis frees them all).
size_t sequenceStatesNearTheEnd(const std::string& path, const tcpscope::AnalysisOptions& options,
                                tcpscope::CaptureAnalysis& analysis) {
    size_t sequenceStates = 0;
    analysis = tcpscope::analyzeCaptures({path}, options, nullptr, nullptr,
                                         [&](const tcpscope::AnalysisCheckpoint& checkpoint) {
                                             sequenceStates = checkpoint.engine.sequenceStatesHeld();
                                         });
    return sequenceStates;
}

}  // namespace

TEST_CASE("retirement: on W1 churn the sequence states of retired connections are freed", "[bench][retirement]") {
    const GeneratedCapture capture(smallWorkload(Workload::W1, 120'000));
    tcpscope::AnalysisOptions options;
    options.detectors.timeWaitSeconds = 1;
    tcpscope::CaptureAnalysis kept;
    const size_t keptSequenceStates = sequenceStatesNearTheEnd(capture.path(), options, kept);
    options.engine.retirement.enabled = true;
    options.engine.retirement.closedAgeNs = 2'000'000'000;
    options.engine.retirement.idleAgeNs = 4'000'000'000;
    tcpscope::CaptureAnalysis retired;
    const size_t retiredSequenceStates = sequenceStatesNearTheEnd(capture.path(), options, retired);

    const tcpscope::AnalysisEngine& engine = *retired.engine;
    INFO(engine.connections().size() << " connections, " << engine.retiredConnections() << " retired");
    CHECK(engine.counters().tcp == kept.engine->counters().tcp);
    CHECK(engine.retiredConnections() > engine.connections().size() / 2);
    CHECK(engine.liveConnections() + engine.retiredConnections() == engine.connections().size());
    // While the capture is read, only the retired connections' sequence states go.
    INFO(keptSequenceStates << " and " << retiredSequenceStates << " sequence states near the end");
    CHECK(keptSequenceStates > 0);
    CHECK(retiredSequenceStates < keptSequenceStates / 2);
    // Once the analysis is over no sequence state is left, and every connection keeps its record.
    CHECK(kept.engine->connectionBytes() == kept.engine->connections().bytesHeld());
    CHECK(engine.connectionBytes() == engine.connections().bytesHeld());
    uint64_t packets = 0;
    for (const tcpscope::Connection& connection : engine.connections()) {
        packets += connection.from(tcpscope::Side::Client).packets + connection.from(tcpscope::Side::Server).packets;
    }
    CHECK(packets == engine.counters().tcp);
}

TEST_CASE("retirement: on W1 churn the SYN-backlog detector holds the handshakes under way, not one per connection",
          "[bench][retirement][backlog]") {
    const GeneratedCapture capture(smallWorkload(Workload::W1, 120'000));
    tcpscope::AnalysisOptions options;
    const tcpscope::test::DetectorRun<tcpscope::SynBacklogDetector> kept({capture.path()}, options);
    options.engine.retirement.enabled = true;
    options.engine.retirement.closedAgeNs = 2'000'000'000;
    options.engine.retirement.idleAgeNs = 4'000'000'000;
    const tcpscope::test::DetectorRun<tcpscope::SynBacklogDetector> retired({capture.path()}, options);

    INFO(retired.engine().connections().size() << " connections, " << retired.engine().retiredConnections()
                                               << " retired");
    REQUIRE(retired.engine().retiredConnections() > retired.engine().connections().size() / 2);
    // A handshake goes once nothing can change it (a file) or its connection is retired (live): what
    // stays per connection is a 4-byte reference, and retirement frees the references too.
    const size_t connections = kept.engine().connections().size();
    INFO(kept.detector.handshakesHeld() << " and " << retired.detector.handshakesHeld() << " handshakes held, "
                                        << kept.detector.stateBytes() << " and " << retired.detector.stateBytes()
                                        << " bytes");
    CHECK(kept.detector.handshakesHeld() > 0);
    CHECK(kept.detector.handshakesHeld() < connections / 10);
    CHECK(retired.detector.handshakesHeld() < connections / 10);
    CHECK(kept.detector.stateBytes() < connections * 12);
    CHECK(retired.detector.stateBytes() < connections * 12);
}
