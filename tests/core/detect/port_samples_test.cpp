// port_reuse, time_wait_churn and port_exhaustion on the real captures in samples/ (see
// samples/README.md for what each one shows): the collisions with their delay, the reuse that
// an accepting TIME_WAIT takes (warnings, not errors), the churn that exhausts 100 ports and the
// pause it caused, and nothing of warning or error severity on the negative controls.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"
#include "sample_findings.hpp"

using namespace tcpscope;

namespace {

// The findings of the detectors these tests are about.
std::vector<Finding> analyzeSample(const std::string& name) {
    return test::sampleFindings(name,
                                {FindingKind::PortReuse, FindingKind::TimeWaitChurn, FindingKind::PortExhaustion});
}

std::vector<Finding> select(const std::vector<Finding>& findings, FindingKind kind, Severity severity) {
    std::vector<Finding> selected;
    std::copy_if(findings.begin(), findings.end(), std::back_inserter(selected),
                 [&](const Finding& finding) { return finding.kind == kind && finding.severity == severity; });
    return selected;
}

size_t problems(const std::vector<Finding>& findings) {
    return static_cast<size_t>(std::count_if(
        findings.begin(), findings.end(), [](const Finding& finding) { return finding.severity != Severity::Info; }));
}

}  // namespace

TEST_CASE("port samples: every reconnect from the fixed source port collides, costing its delay",
          "[port_reuse][samples]") {
    const auto findings = analyzeSample("port-reuse-collision.pcap");
    const auto collisions = select(findings, FindingKind::PortReuse, Severity::Error);
    CHECK(collisions.size() == 5);
    CHECK(findings.size() == 5);
    for (const Finding& collision : collisions) {
        // SYN -> challenge ACK -> RST -> SYN again -> SYN-ACK -> ACK; about 10 ms on Linux >= 5.6.
        CHECK(collision.evidence["time_wait_holder"]["side"] == "server");
        CHECK(collision.evidence["isn_newer"] == "no");
        CHECK(collision.evidence["frames"]["challenge_ack"].is_number());
        CHECK(collision.evidence["frames"]["sender_rst"].is_number());
        CHECK(collision.evidence["syn_retransmissions"] == 1);
        CHECK(collision.evidence["established"] == true);
        CHECK(collision.durationMs > 5);
        CHECK(collision.durationMs < 30);
        CHECK(collision.frames.size() == 6);
    }
}

TEST_CASE("port samples: HTTP/1.0 reuse into an accepting TIME_WAIT gives warnings, not errors",
          "[port_reuse][time_wait_churn][samples]") {
    const auto findings = analyzeSample("http-tw-reuse.pcap");
    CHECK(select(findings, FindingKind::PortReuse, Severity::Error).empty());
    const auto reuses = select(findings, FindingKind::PortReuse, Severity::Warning);
    REQUIRE(reuses.size() == 1);
    CHECK(reuses[0].evidence["outcome"] == "into_time_wait");
    CHECK(reuses[0].evidence["reuses"] == 275);
    CHECK(reuses[0].evidence["isn_newer"] == 275);
    CHECK(reuses[0].evidence["timestamp_newer"] == 264);
    CHECK(reuses[0].durationMs == 0);

    const auto churn = select(findings, FindingKind::TimeWaitChurn, Severity::Info);
    REQUIRE(churn.size() == 1);
    CHECK(churn[0].evidence["role"] == "server");
    CHECK(churn[0].evidence["active_closes"] == 300);
    CHECK(churn[0].evidence["peak_population"] == 25);  // 25 client ports, each entry replaced by the next SYN
    CHECK(problems(findings) == 1);
}

TEST_CASE("port samples: the churn exhausts 100 ports and pauses until TIME_WAIT expires",
          "[port_exhaustion][time_wait_churn][samples]") {
    const auto findings = analyzeSample("churn-exhaustion.pcap");
    const auto exhaustion = select(findings, FindingKind::PortExhaustion, Severity::Error);
    REQUIRE(exhaustion.size() == 1);
    CHECK(exhaustion[0].durationMs > 55'000);
    CHECK(exhaustion[0].durationMs < 65'000);
    CHECK(exhaustion[0].evidence["observed_port_range"] == "40000-40099");
    CHECK(exhaustion[0].evidence["pauses"][0]["ports_in_use"] == 100);
    CHECK(exhaustion[0].evidence["connections"] == 150);

    const auto churn = select(findings, FindingKind::TimeWaitChurn, Severity::Info);
    REQUIRE(churn.size() == 1);
    CHECK(churn[0].evidence["role"] == "client");
    CHECK(churn[0].evidence["active_closes"] == 150);
    CHECK(churn[0].evidence["peak_population"] == 100);

    // The 50 connections after the pause reuse ports whose TIME_WAIT had expired: harmless.
    const auto reuses = select(findings, FindingKind::PortReuse, Severity::Info);
    REQUIRE(reuses.size() == 1);
    CHECK(reuses[0].evidence["reuses"] == 50);
    CHECK(problems(findings) == 1);
}

TEST_CASE("port samples: no port or TIME_WAIT problem on the other captures", "[samples]") {
    for (const char* name : {"proxy-nodelay.pcap", "http-keepalive.pcap"}) {
        INFO(name);
        CHECK(analyzeSample(name).empty());
    }
    for (const char* name : {"proxy-nagle.pcap", "proxy-nagle-ff.pcap", "proxy-nagle-ttt.pcapng",
                             "backlog-overflow.pcap", "http-close.pcap"}) {
        INFO(name);
        CHECK(problems(analyzeSample(name)) == 0);
    }
    // nginx closes first on every request-carrying connection: info about the server's TIME_WAIT.
    const auto close = analyzeSample("http-close.pcap");
    REQUIRE(close.size() == 1);
    CHECK(close[0].kind == FindingKind::TimeWaitChurn);
    CHECK(close[0].evidence["role"] == "server");
    CHECK(close[0].evidence["active_closes"] == 300);
}
