// A finding's kind is an enum inside the program and a name in the JSON report, the text report
// and the notes sidecar: the names are the report's contract, and each reads back as its kind.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "finding/finding_kind.hpp"

using tcpscope::FindingKind;
using tcpscope::findingKindName;
using tcpscope::parseFindingKind;

TEST_CASE("finding kinds keep the names the JSON report has always used", "[detect]") {
    CHECK(findingKindName(FindingKind::DelayedAckStall) == "delayed_ack_stall");
    CHECK(findingKindName(FindingKind::RetransmissionStall) == "retransmission_stall");
    CHECK(findingKindName(FindingKind::ZeroWindowStall) == "zero_window_stall");
    CHECK(findingKindName(FindingKind::SynBacklogOverflow) == "syn_backlog_overflow");
    CHECK(findingKindName(FindingKind::PortReuse) == "port_reuse");
    CHECK(findingKindName(FindingKind::TimeWaitChurn) == "time_wait_churn");
    CHECK(findingKindName(FindingKind::PortExhaustion) == "port_exhaustion");
    CHECK(findingKindName(FindingKind::SynUnanswered) == "syn_unanswered");
    CHECK(findingKindName(FindingKind::SynFlood) == "syn_flood");
    CHECK(findingKindName(FindingKind::PortScan) == "port_scan");
    CHECK(findingKindName(FindingKind::CaptureQuality) == "capture_quality");
    CHECK(findingKindName(FindingKind::PathMtu) == "path_mtu");
}

TEST_CASE("every finding kind name reads back as its kind, and no other name does", "[detect]") {
    std::set<std::string> names;
    for (const FindingKind kind : tcpscope::kFindingKinds) {
        CAPTURE(findingKindName(kind));
        CHECK(parseFindingKind(findingKindName(kind)) == kind);
        names.emplace(findingKindName(kind));
    }
    CHECK(names.size() == tcpscope::kFindingKinds.size());
    CHECK_FALSE(parseFindingKind("delayed_ack"));
    CHECK_FALSE(parseFindingKind(""));
    CHECK_FALSE(parseFindingKind("Delayed_Ack_Stall"));
}

TEST_CASE("a finding kind put into JSON is its name, not the enum's number", "[detect]") {
    const nlohmann::json tree = {{"kind", FindingKind::PortScan}};
    CHECK(tree["kind"] == "port_scan");
    const nlohmann::ordered_json ordered = FindingKind::CaptureQuality;
    CHECK(ordered == "capture_quality");
}
