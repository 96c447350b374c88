// What the benchmark measures must be real work: the analysis must see every packet and every
// connection the generator wrote, and W1 must give every detector something to find.
#include <catch2/catch.hpp>

#include <set>

#include "analysis/capture_analysis.hpp"
#include "finding/finding.hpp"
#include "support/generated_capture.hpp"

using tcpscope::bench::Workload;
using tcpscope::test::GeneratedCapture;
using tcpscope::test::smallWorkload;

TEST_CASE("generator: the analysis sees every packet and connection written", "[bench]") {
    const auto [workload, packets] = GENERATE(table<Workload, uint64_t>({
        {Workload::W1, 40'000},
        {Workload::W2, 8'000},
        {Workload::W3, 40'000},
    }));
    CAPTURE(tcpscope::bench::workloadName(workload));
    const GeneratedCapture capture(smallWorkload(workload, packets));
    const tcpscope::CaptureAnalysis analysis = tcpscope::analyzeCaptures({capture.path()}, {});
    const tcpscope::FrameCounters& counters = analysis.engine->counters();
    CHECK(counters.frames == capture.stats().packets);
    CHECK(counters.tcp == capture.stats().packets);
    CHECK(counters.malformed == 0);
    CHECK(counters.truncated == 0);
    CHECK(analysis.engine->connections().size() == capture.stats().connections);
    REQUIRE(analysis.inputs.size() == 1);
    CHECK(analysis.inputs[0].errors.empty());
}

TEST_CASE("generator: W1 gives every detector work", "[bench]") {
    const GeneratedCapture capture(smallWorkload(Workload::W1, 150'000));
    const tcpscope::CaptureAnalysis analysis = tcpscope::analyzeCaptures({capture.path()}, {});
    std::set<tcpscope::FindingKind> kinds;
    for (const tcpscope::Finding& finding : analysis.findings) {
        kinds.insert(finding.kind);
    }
    // port_exhaustion's error needs a 60 s pause, longer than a small W1; its warning is here.
    using tcpscope::FindingKind;
    for (const FindingKind kind :
         {FindingKind::DelayedAckStall, FindingKind::PortReuse, FindingKind::TimeWaitChurn, FindingKind::PortExhaustion,
          FindingKind::SynBacklogOverflow, FindingKind::RetransmissionStall, FindingKind::ZeroWindowStall}) {
        CAPTURE(tcpscope::findingKindName(kind));
        CHECK(kinds.count(kind) == 1);
    }
}
