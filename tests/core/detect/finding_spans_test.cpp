// The timeline, the sequence diagram, stall navigation and strace confirmation read a finding's
// typed spans, the reports its evidence: on W1, where every detector finds something, both must
// tell the same stalls, pauses and delayed handshakes.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "finding/finding.hpp"
#include "finding/kind_info.hpp"
#include "support/generated_capture.hpp"

using namespace tcpscope;
using tcpscope::bench::Workload;
using tcpscope::test::GeneratedCapture;
using tcpscope::test::smallWorkload;

namespace {

int64_t msToNs(double ms) {
    return std::llround(ms * 1e6);
}

// Within the microsecond the evidence rounds some of its times to.
bool near(int64_t a, int64_t b) {
    return std::llabs(a - b) <= 1000;
}

void checkStallSpans(const Finding& finding, const nlohmann::json& instances) {
    REQUIRE(finding.spans.size() == instances.size());
    CHECK(finding.totalSpans == finding.evidence["stalls"].get<uint32_t>());
    REQUIRE(finding.waitingSide);
    for (size_t index = 0; index < finding.spans.size(); ++index) {
        const FindingSpan& span = finding.spans[index];
        const nlohmann::json& instance = instances[index];
        CAPTURE(index);
        CHECK(span.connection == finding.connection);
        CHECK(span.side == *finding.waitingSide);
        CHECK(std::vector<uint32_t>(span.frames.begin(), span.frames.end()) ==
              instance["frames"].get<std::vector<uint32_t>>());
        CHECK(near(span.startNs, finding.tsNs + msToNs(instance["ts_offset_ms"].get<double>())));
        for (const char* key : {"hold_ms", "gap_ms", "closed_ms"}) {
            if (instance.contains(key)) {
                CHECK(near(span.endNs - span.startNs, msToNs(instance[key].get<double>())));
            }
        }
    }
}

}  // namespace

TEST_CASE("every finding's spans are what its evidence lists", "[bench][detect]") {
    const GeneratedCapture capture(smallWorkload(Workload::W1, 150'000));
    const CaptureAnalysis analysis = analyzeCaptures({capture.path()}, {});
    std::set<FindingKind> withSpans;
    for (const Finding& finding : analysis.findings) {
        CAPTURE(findingKindName(finding.kind), finding.id);
        CHECK(finding.spans.size() <= finding.totalSpans);
        // Each frame of a span in a role of its kind's row, in the row's order.
        const FrameRoles& roles = kindInfo(finding.kind).frames;
        for (const FindingSpan& span : finding.spans) {
            const FrameRole* next = roles.begin();
            for (size_t index = 0; index < span.frames.size(); ++index) {
                next = std::find(next, roles.end(), span.frames.roleAt(index));
                REQUIRE(next != roles.end());
                ++next;
            }
        }
        switch (finding.kind) {
            case FindingKind::DelayedAckStall:
            case FindingKind::RetransmissionStall:
            case FindingKind::ZeroWindowStall: checkStallSpans(finding, finding.evidence["instances"]); break;
            case FindingKind::PortExhaustion:
                if (finding.evidence.contains("pauses")) {
                    REQUIRE(finding.spans.size() == finding.evidence["pauses"].size());
                    for (size_t index = 0; index < finding.spans.size(); ++index) {
                        const nlohmann::json& pause = finding.evidence["pauses"][index];
                        CHECK(finding.spans[index].frames.of(FrameRole::LastSynBeforePause) ==
                              pause["last_syn_frame"].get<uint32_t>());
                        CHECK(near(finding.spans[index].endNs - finding.spans[index].startNs,
                                   msToNs(pause["pause_ms"].get<double>())));
                    }
                }
                CHECK(finding.server);
                break;
            case FindingKind::SynBacklogOverflow: {
                const nlohmann::json& connections = finding.evidence["connections"];
                REQUIRE(finding.spans.size() == connections.size());
                for (size_t index = 0; index < finding.spans.size(); ++index) {
                    CHECK(finding.spans[index].connection == connections[index]["connection"].get<uint32_t>());
                    CHECK(near(finding.spans[index].endNs - finding.spans[index].startNs,
                               msToNs(connections[index]["delay_ms"].get<double>())));
                }
                break;
            }
            case FindingKind::PortReuse: {
                if (!finding.evidence.contains("instances")) {
                    // A collision: one span, its own delayed handshake, from the first SYN.
                    REQUIRE(finding.spans.size() == 1);
                    CHECK(finding.spans.front().connection == finding.connection);
                    CHECK(finding.spans.front().frames.front() == finding.frames.front());
                    CHECK(near(finding.spans.front().endNs - finding.spans.front().startNs,
                               msToNs(finding.evidence["delay_ms"].get<double>())));
                    break;
                }
                // A group's spans are its reuses on other connections than the finding's own.
                std::vector<uint32_t> others;
                for (const nlohmann::json& instance : finding.evidence.value("instances", nlohmann::json::array())) {
                    if (instance["connection"].get<uint32_t>() != finding.connection) {
                        others.push_back(instance["connection"].get<uint32_t>());
                    }
                }
                REQUIRE(finding.spans.size() == others.size());
                for (size_t index = 0; index < finding.spans.size(); ++index) {
                    CHECK(finding.spans[index].connection == others[index]);
                }
                break;
            }
            default: CHECK(finding.spans.empty()); break;
        }
        if (!finding.spans.empty()) {
            withSpans.insert(finding.kind);
        }
    }
    // The stall detectors and the backlog have spans on W1 (ports run out only on a longer one).
    for (const FindingKind kind : {FindingKind::DelayedAckStall, FindingKind::RetransmissionStall,
                                   FindingKind::ZeroWindowStall, FindingKind::SynBacklogOverflow}) {
        CAPTURE(findingKindName(kind));
        CHECK(withSpans.count(kind) == 1);
    }
}
