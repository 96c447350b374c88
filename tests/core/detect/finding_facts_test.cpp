// The reports word a finding's typed facts (whom a finding of no flow names, what a finding that made
// nothing wait counted), the JSON report its evidence: both come from the detector and must agree.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <variant>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "sample_findings.hpp"
#include "support/generated_capture.hpp"

using namespace tcpscope;
using tcpscope::bench::Workload;
using tcpscope::test::GeneratedCapture;
using tcpscope::test::smallWorkload;

namespace {

// Checks the facts of each finding against its evidence; returns the kinds whose findings had facts.
template <typename Findings>  // a FindingList or a vector of findings
std::set<FindingKind> checkFacts(const Findings& findings) {
    std::set<FindingKind> withFacts;
    for (const Finding& finding : findings) {
        CAPTURE(findingKindName(finding.kind), finding.id);
        const nlohmann::json& evidence = finding.evidence;
        if (const auto* churn = std::get_if<ChurnFacts>(&finding.facts)) {
            CHECK(finding.kind == FindingKind::TimeWaitChurn);
            CHECK(evidence["host"] == churn->host.toString());
            CHECK(evidence["role"] == sideName(churn->role));
            CHECK(evidence["active_closes"] == churn->activeCloses);
            CHECK(evidence["peak_population"] == churn->peakTimeWait);
        } else if (const auto* reuse = std::get_if<AcceptedReuseFacts>(&finding.facts)) {
            CHECK(finding.kind == FindingKind::PortReuse);
            CHECK(evidence["reuses"] == reuse->reuses);
        } else if (const auto* attempts = std::get_if<AttemptFacts>(&finding.facts)) {
            CHECK(evidence["attempts"] == attempts->attempts);
            CHECK(evidence.contains("server") == attempts->server.has_value());
            if (attempts->server) {
                CHECK(evidence["server"] == attempts->server->toString());
            }
            if (attempts->source) {
                CHECK(evidence[finding.kind == FindingKind::PortScan ? "source" : "client"] ==
                      attempts->source->toString());
            }
            CHECK(evidence.contains("target") == attempts->target.has_value());
            if (attempts->target) {
                CHECK(evidence["target"] == attempts->target->toString());
            }
        } else {
            continue;
        }
        withFacts.insert(finding.kind);
    }
    return withFacts;
}

}  // namespace

TEST_CASE("a finding's typed facts say what its evidence says, on W1", "[bench][detect]") {
    const GeneratedCapture capture(smallWorkload(Workload::W1, 150'000));
    const CaptureAnalysis analysis = analyzeCaptures({capture.path()}, {});
    const std::set<FindingKind> withFacts = checkFacts(analysis.findings);
    CHECK(withFacts.contains(FindingKind::TimeWaitChurn));
}

TEST_CASE("a finding's typed facts say what its evidence says, on the churn samples", "[detect]") {
    const std::set<FindingKind> churning = checkFacts(
        test::sampleFindings("hosts-churn.pcap", {FindingKind::TimeWaitChurn, FindingKind::PortReuse}));
    CHECK(churning.contains(FindingKind::TimeWaitChurn));
    const std::set<FindingKind> reusing =
        checkFacts(test::sampleFindings("http-tw-reuse.pcap", {FindingKind::TimeWaitChurn, FindingKind::PortReuse}));
    CHECK(reusing.contains(FindingKind::PortReuse));
}

TEST_CASE("a finding's typed facts say what its evidence says, on public captures of scans and floods",
          "[detect][realworld]") {
    const std::filesystem::path folder = std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "../shared/captures/realworld";
    if (!std::filesystem::is_directory(folder)) {
        WARN("no public captures beside the project: facts of scans and floods not checked");
        return;
    }
    std::set<FindingKind> withFacts;
    for (const char* name : {"ppa-portscan.pcap", "suricata-firewall_tcp-session-syn-flood-drop-precedence_input.pcap",
                             "ppa-gnutella.pcap"}) {
        CAPTURE(name);
        const CaptureAnalysis analysis = analyzeCaptures({(folder / name).string()}, {});
        for (const FindingKind kind : checkFacts(analysis.findings)) {
            withFacts.insert(kind);
        }
    }
    CHECK(withFacts.contains(FindingKind::PortScan));
    CHECK(withFacts.contains(FindingKind::SynFlood));
    CHECK(withFacts.contains(FindingKind::SynUnanswered));
}
