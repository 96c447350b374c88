// syn_backlog_overflow, retransmission_stall and zero_window_stall on the real captures in
// samples/ (see samples/README.md for what each one shows): the backlog scenario shows the
// overflow with the delay it added, the TIME_WAIT collisions are not mistaken for it, and no
// other sample (negative controls included) gets a warning or an error from these detectors.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "sample_findings.hpp"

using namespace tcpscope;

namespace {

// The findings of the detectors these tests are about.
std::vector<Finding> analyzeSample(const std::string& name) {
    return test::sampleFindings(
        name, {FindingKind::SynBacklogOverflow, FindingKind::RetransmissionStall, FindingKind::ZeroWindowStall});
}

}  // namespace

TEST_CASE("stall samples: listen(fd, 1) with a burst of 20 connects overflows the backlog", "[backlog][samples]") {
    const auto findings = analyzeSample("backlog-overflow.pcap");
    REQUIRE(findings.size() == 1);
    const Finding& overflow = findings.front();
    CHECK(overflow.kind == FindingKind::SynBacklogOverflow);
    CHECK(overflow.severity == Severity::Error);
    CHECK(overflow.evidence["listener"] == "127.0.0.1:9200");
    // Two connections get in per round of retransmissions: 18 of 20 wait, with 90 SYNs resent.
    CHECK(overflow.evidence["connections_delayed"] == 18);
    CHECK(overflow.evidence["syn_retransmissions"] == 90);
    CHECK(overflow.evidence["synack_retransmissions"] == 0);
    CHECK(overflow.evidence["connections_unfinished"] == 0);
    CHECK(overflow.evidence["peak_concurrent_handshakes"].get<int>() >= 17);
    CHECK(overflow.frames.size() == 90);
    // The last two waited through nine retransmissions (over 30 s with any backoff).
    CHECK(overflow.evidence["delay_max_ms"].get<double>() > 30'000);
    CHECK(overflow.durationMs > 100'000);
    for (const auto& connection : overflow.evidence["connections"]) {
        CHECK(connection["outcome"] == "established");
        CHECK(connection["delay_ms"].get<double>() >= 900);
    }
}

TEST_CASE("stall samples: SYNs retransmitted after a TIME_WAIT's challenge ACK are not backlog overflow",
          "[backlog][samples]") {
    CHECK(analyzeSample("port-reuse-collision.pcap").empty());
}

TEST_CASE("stall samples: no warning or error on the other samples, negative controls included", "[samples]") {
    for (const char* name :
         {"http-keepalive.pcap", "proxy-nodelay.pcap", "proxy-nagle.pcap", "proxy-nagle-ff.pcap",
          "proxy-nagle-ttt.pcapng", "http-close.pcap", "http-tw-reuse.pcap", "churn-exhaustion.pcap"}) {
        INFO(name);
        for (const Finding& finding : analyzeSample(name)) {
            INFO(finding.summary);
            CHECK(finding.severity == Severity::Info);
        }
    }
}
