// The verdicts a live capture gives its stall findings, held against the report's: a verdict the
// end-of-capture pass sums up otherwise is listed (the report's stands), a finding is found by its
// flow and start whatever its id, and the finding's verdict is the report's sum of its stalls.
#include "recorder/live_stall_verdicts.hpp"

#include <catch2/catch.hpp>

#include "recorder/live_verdict_report.hpp"

using namespace tcpscope;

namespace {

StraceVerdict stall(StraceVerdictKind kind) {
    StraceVerdict verdict;
    verdict.verdict = kind;
    return verdict;
}

// The report's stall finding `id` on `connection`, started at `tsNs`, with these stalls' verdicts.
void addReportStall(CaptureAnalysis& analysis, uint32_t connection, int64_t tsNs, std::vector<StraceVerdict> verdicts) {
    Finding finding;
    finding.id = static_cast<uint32_t>(analysis.findings.size());
    finding.kind = FindingKind::DelayedAckStall;
    finding.connection = connection;
    finding.tsNs = tsNs;
    if (!verdicts.empty()) {
        analysis.enrichments.edit(finding.id).straceVerdicts = std::move(verdicts);
    }
    analysis.findings.push_back(std::move(finding));
}

LiveStallVerdict liveVerdict(uint32_t liveId, uint32_t connection, int64_t tsNs, StraceVerdictKind kind) {
    return {.findingId = liveId,
            .connection = connection,
            .findingTsNs = tsNs,
            .verdict = kind,
            .counts = {},
            .cited = std::nullopt,
            .lastStallEndNs = 0,
            .judgedNs = 0};
}

}  // namespace

TEST_CASE("live stall verdicts: a finding's verdict is confirmed if a stall is, else refuted if one is",
          "[recorder][live]") {
    CHECK(findingVerdict(countVerdicts({stall(StraceVerdictKind::NoTrace), stall(StraceVerdictKind::Refuted),
                                        stall(StraceVerdictKind::Confirmed)})) == StraceVerdictKind::Confirmed);
    CHECK(findingVerdict(countVerdicts({stall(StraceVerdictKind::NoTrace), stall(StraceVerdictKind::Refuted)})) ==
          StraceVerdictKind::Refuted);
    CHECK(findingVerdict(countVerdicts({stall(StraceVerdictKind::NoTrace)})) == StraceVerdictKind::NoTrace);
    CHECK(findingVerdict(countVerdicts({})) == StraceVerdictKind::NoTrace);
}

TEST_CASE("live stall verdicts: only those the report sums up otherwise are revised, the report's verdict stands",
          "[recorder][live]") {
    CaptureAnalysis report;
    addReportStall(report, 0, 1'000, {stall(StraceVerdictKind::Confirmed), stall(StraceVerdictKind::Confirmed)});
    addReportStall(report, 3, 2'000, {stall(StraceVerdictKind::NoTrace), stall(StraceVerdictKind::Confirmed)});
    addReportStall(report, 5, 3'000, {});
    // Live ids are not the report's (the report renumbers its findings): flow and start find them.
    const std::vector<LiveStallVerdict> live = {
        liveVerdict(7, 0, 1'000, StraceVerdictKind::Confirmed),  // the same
        liveVerdict(9, 3, 2'000, StraceVerdictKind::NoTrace),    // its confirming stall came later
        liveVerdict(11, 5, 3'000, StraceVerdictKind::NoTrace),   // the same: no call explained it
        liveVerdict(12, 6, 4'000, StraceVerdictKind::Refuted),   // not in the report (none to revise)
    };
    const std::vector<RevisedVerdict> revised = revisedVerdicts(live, report);
    REQUIRE(revised.size() == 1);
    CHECK(revised[0].live.findingId == 9);
    CHECK(revised[0].report == StraceVerdictKind::Confirmed);
    CHECK(
        revisedVerdictEventJson(revised[0]).dump() ==
        R"({"event":"verdict_revised","id":9,"kind":"delayed_ack_stall","flow":3,"live":"no_trace","report":"confirmed"})");
    CHECK(revisedVerdictText(revised[0]).find("the report says confirmed, not no_trace") == 0);
}

TEST_CASE("live stall verdicts: the verdict line cites the held write and says how long after the stall it came",
          "[recorder][live]") {
    LiveStallVerdict verdict = liveVerdict(2, 4, 1'000'000'000, StraceVerdictKind::Confirmed);
    verdict.counts = countVerdicts({stall(StraceVerdictKind::Confirmed), stall(StraceVerdictKind::NoTrace)});
    StraceVerdict cited = stall(StraceVerdictKind::Confirmed);
    cited.heldWrite = {"sendto", 20, 0, 0};
    cited.kernelHoldMs = 41.5;
    cited.pattern = "sendto, sendto, recvfrom";
    verdict.cited = cited;
    verdict.lastStallEndNs = 2'000'000'000;
    verdict.judgedNs = 2'312'000'000;
    CHECK(liveVerdictText(verdict) ==
          "confirmed by the recorded calls (1 of 2 stalls so far): the application wrote 20 bytes (sendto, sendto, "
          "recvfrom) that the kernel held 41.5 ms until the ACK; TCP_NODELAY was never set; 312 ms after the stall "
          "ended");
    const nlohmann::ordered_json event = liveVerdictEventJson(verdict);
    CHECK(event["event"] == "verdict");
    CHECK(event["id"] == 2);
    CHECK(event["flow"] == 4);
    CHECK(event["verdict"] == "confirmed");
    CHECK(event["stalls"] == 2);
    CHECK(event["after_stall_ms"] == 312.0);
    CHECK(event["kernel_hold_ms"] == 41.5);
    CHECK(event["pattern"] == "sendto, sendto, recvfrom");
}
