// syn_backlog_overflow on a live capture that retires old connections: recorded captures analysed
// with the engine's retirement (ages short enough for their minute) give the findings of the file,
// and the handshakes of the retired connections are released.
#include <string>

#include <catch2/catch.hpp>

#include "detect/syn_backlog_detector.hpp"
#include "support/detector_run.hpp"

namespace tcpscope {
namespace {

using BacklogRun = test::DetectorRun<SynBacklogDetector>;

AnalysisOptions retiring(int64_t closedAgeNs, int64_t idleAgeNs) {
    AnalysisOptions options;
    options.engine.retirement.enabled = true;
    options.engine.retirement.closedAgeNs = closedAgeNs;
    options.engine.retirement.idleAgeNs = idleAgeNs;
    return options;
}

}  // namespace

TEST_CASE("live: a listener's overflow finding is the file's when its connections are retired on the way",
          "[detect][backlog][retirement]") {
    const std::string capture = TCPSCOPE_SOURCE_DIR "/samples/backlog-overflow.pcap";
    BacklogRun file({capture}, AnalysisOptions{});
    // Closed connections go 1 s after their last packet; the SYN retransmissions of a waiting
    // handshake come at most 16 s apart in this capture, so none is cut by the idle age.
    BacklogRun live({capture}, retiring(1'000'000'000, 20'000'000'000));
    INFO(live.engine().retiredConnections() << " of " << live.engine().connections().size() << " retired");
    CHECK(live.engine().retiredConnections() >= live.engine().connections().size() / 2);
    const Json findings = live.findingsJson();
    REQUIRE(findings.size() == 1);
    CHECK(findings == file.findingsJson());
    CHECK(findings[0]["evidence"]["connections_delayed"] == 18);
}

TEST_CASE("live: retiring a churn of connections through port exhaustion leaves no backlog finding",
          "[detect][backlog][retirement]") {
    const std::string capture = TCPSCOPE_SOURCE_DIR "/samples/churn-exhaustion.pcap";
    BacklogRun file({capture}, AnalysisOptions{});
    BacklogRun live({capture}, retiring(2'000'000'000, 5'000'000'000));
    CHECK(live.engine().retiredConnections() == 100);
    CHECK(live.findingsJson() == file.findingsJson());
    CHECK(file.findingsJson().empty());
}

}  // namespace tcpscope
