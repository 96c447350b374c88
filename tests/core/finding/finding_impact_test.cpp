// The impact of a finding (FindingImpact, from WaitTally): wall-clock time as the union of the
// waits, connection-time as their sum, percentiles by nearest rank; and, on every sample in
// samples/, wall-clock time that never exceeds the capture's duration.
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/capture_analysis.hpp"
#include "finding/finding_impact.hpp"

using namespace tcpscope;

namespace {

constexpr int64_t kMs = 1'000'000;

}  // namespace

TEST_CASE("impact: waits at once count once in wall-clock time, every time in connection-time", "[impact]") {
    WaitTally waits;
    // Three connections wait at once for 500 ms, a fourth later for 100 ms.
    waits.add(1, 0, 500 * kMs);
    waits.add(2, 100 * kMs, 600 * kMs);
    waits.add(3, 0, 500 * kMs);
    waits.add(4, 1000 * kMs, 1100 * kMs);
    const FindingImpact impact = waits.impact();
    CHECK(impact.wallMs == Approx(700));  // 0-600 and 1000-1100
    CHECK(impact.connectionMs == Approx(1600));
    CHECK(impact.connections == 4);
    CHECK(impact.delayedRequests == 4);
    CHECK(impact.p50Ms == Approx(500));
    CHECK(impact.p99Ms == Approx(500));
    CHECK(impact.maxMs == Approx(500));
    const std::vector<WaitRange> merged = waits.merged();
    REQUIRE(merged.size() == 2);
    CHECK(merged[0].startNs == 0);
    CHECK(merged[0].endNs == 600 * kMs);
    CHECK(merged[1].startNs == 1000 * kMs);
}

TEST_CASE("impact: percentiles by nearest rank over 100 waits - one connection counted once", "[impact]") {
    WaitTally waits;
    for (int64_t i = 1; i <= 100; ++i) {  // 1..100 ms, one after the other, all of connection 7
        waits.add(7, i * 1000 * kMs, i * 1000 * kMs + i * kMs);
    }
    const FindingImpact impact = waits.impact();
    CHECK(impact.connections == 1);
    CHECK(impact.delayedRequests == 100);
    CHECK(impact.p50Ms == Approx(50));
    CHECK(impact.p99Ms == Approx(99));
    CHECK(impact.maxMs == Approx(100));
    CHECK(impact.wallMs == Approx(5050));
    CHECK(impact.connectionMs == Approx(5050));
}

TEST_CASE("impact: a wait still going on counts - waits of no length and of no connection", "[impact]") {
    WaitTally waits;
    CHECK(waits.impact().delayedRequests == 0);
    const uint32_t handshake = waits.add(3, 0, 0);
    CHECK(waits.impact().delayedRequests == 0);  // no length yet: it delayed nothing
    waits.setLength(handshake, 3000 * kMs);        // its SYN was retried for 3 s
    waits.add(kNoConnection, 2000 * kMs, 5000 * kMs);  // a port pool's pause
    const FindingImpact impact = waits.impact(ongoingWait(6000 * kMs, 1000 * kMs));
    CHECK(impact.delayedRequests == 3);
    CHECK(impact.connections == 1);
    CHECK(impact.wallMs == Approx(6000));  // 0-5000 and 6000-7000
    CHECK(impact.connectionMs == Approx(7000));
    CHECK_FALSE(ongoingWait(6000 * kMs, 0).has_value());
}

TEST_CASE("impact: on every sample, no finding's wall-clock time exceeds the capture or its connection-time",
          "[impact][samples]") {
    const std::filesystem::path samples = std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples";
    size_t checked = 0;
    size_t withWaits = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(samples)) {
        const std::string extension = entry.path().extension().string();
        if (extension != ".pcap" && extension != ".pcapng") {
            continue;
        }
        const CaptureAnalysis analysis = analyzeCaptures({entry.path().string()}, {});
        const double captureMs =
            static_cast<double>(analysis.engine->lastTsNs() - analysis.engine->firstTsNs()) / 1e6;
        for (const Finding& finding : analysis.findings) {
            INFO(entry.path().filename().string() << ": " << findingKindName(finding.kind) << " finding "
                                                   << finding.id);
            const FindingImpact& impact = finding.impact;
            CHECK(impact.wallMs <= captureMs + 0.001);
            CHECK(impact.wallMs <= impact.connectionMs + 0.001);
            CHECK(impact.maxMs <= impact.wallMs + 0.001);
            CHECK(impact.p50Ms <= impact.p99Ms);
            CHECK(impact.p99Ms <= impact.maxMs);
            if (impact.delayedRequests > 0) {
                ++withWaits;
                CHECK(impact.wallMs > 0);
            }
            ++checked;
        }
    }
    CHECK(checked > 30);
    CHECK(withWaits > 20);
}

TEST_CASE("impact: the backlog sample's listener waited far less wall-clock time than its connections added up",
          "[impact][samples]") {
    const std::filesystem::path path = std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / "backlog-overflow.pcap";
    const CaptureAnalysis analysis = analyzeCaptures({path.string()}, {});
    const double captureMs = static_cast<double>(analysis.engine->lastTsNs() - analysis.engine->firstTsNs()) / 1e6;
    bool found = false;
    for (const Finding& finding : analysis.findings) {
        if (finding.kind != FindingKind::SynBacklogOverflow) {
            continue;
        }
        found = true;
        // Many connections retried their SYNs at once: their added-up delay exceeds the capture.
        CHECK(finding.impact.connectionMs == Approx(finding.durationMs).margin(0.01));
        CHECK(finding.impact.connections > 10);
        CHECK(finding.impact.wallMs < captureMs);
        CHECK(finding.impact.wallMs < finding.impact.connectionMs / 2);
    }
    CHECK(found);
}
