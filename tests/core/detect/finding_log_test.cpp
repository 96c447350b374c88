// A detector that keeps its findings in its own records (a FindingAuthor) tells the log only that
// a finding changed; readers must still see every finding as the records stand when they read.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "detect/finding_log.hpp"

using tcpscope::Finding;
using tcpscope::FindingAuthor;
using tcpscope::FindingKind;
using tcpscope::FindingList;
using tcpscope::FindingLog;

namespace {

// Counts stalls per record and writes them into the summary, its duration as a stall's 10 ms
// each, counting its own describe and measure calls.
class CountingAuthor : public FindingAuthor {
public:
    std::vector<int> stalls;
    mutable int describes = 0;
    mutable int measures = 0;

    mutable int evidenceWrites = 0;

    void describe(uint32_t record, Finding& finding, Detail detail) const override {
        ++describes;
        finding.durationMs = 10.0 * stalls.at(record);
        finding.summary = std::to_string(stalls.at(record)) + " stalls";
        if (detail == Detail::Full) {
            ++evidenceWrites;
            finding.evidence["stalls"] = stalls.at(record);
        }
    }
    void measure(uint32_t record, Finding& finding) const override {
        ++measures;
        finding.durationMs = 10.0 * stalls.at(record);
    }
};

Finding findingOfKind(FindingKind kind) {
    Finding finding;
    finding.kind = kind;
    return finding;
}

}  // namespace

TEST_CASE("finding log describes authored findings when they are read", "[detect][finding_log]") {
    FindingLog log;
    CountingAuthor author;
    author.stalls = {0, 0};
    const uint32_t first = log.add(findingOfKind(FindingKind::DelayedAckStall), &author, 0);
    const uint32_t second = log.add(findingOfKind(FindingKind::DelayedAckStall), &author, 1);
    log.add(findingOfKind(FindingKind::SynBacklogOverflow));  // without author: stays as it was given
    for (int stall = 0; stall < 100; ++stall) {
        ++author.stalls[0];
        log.changed(first);
    }
    CHECK(author.describes == 0);  // nobody read: nothing was described yet

    REQUIRE(log.all().size() == 3);
    CHECK(log.all()[first].summary == "100 stalls");
    CHECK(log.all()[second].summary == "0 stalls");
    CHECK(log.all()[2].summary.empty());
    CHECK(author.describes == 2);  // once each, however often they changed, and not again on a re-read

    author.stalls[1] = 7;
    log.changed(second);
    const FindingList released = log.release();
    CHECK(released[first].summary == "100 stalls");
    CHECK(released[second].summary == "7 stalls");
    CHECK(released[second].evidence["stalls"] == 7);
    CHECK(author.describes == 3);
}

TEST_CASE("finding log read but for the evidence leaves it to the next full read", "[detect][finding_log]") {
    // A live capture's records read the findings every second and send the evidence only with a
    // finding's last revision: a read without it must give current counts and summary, and the
    // next full read must bring the evidence up to date, each finding described once per read.
    FindingLog log;
    CountingAuthor author;
    author.stalls = {1};
    const uint32_t id = log.add(findingOfKind(FindingKind::DelayedAckStall), &author, 0);

    CHECK(log.allButEvidence()[id].summary == "1 stalls");
    CHECK(log.allButEvidence()[id].evidence.is_null());  // never written yet
    CHECK(author.describes == 1);
    CHECK(author.evidenceWrites == 0);

    CHECK(log.all()[id].evidence["stalls"] == 1);  // unchanged, but its evidence was behind
    CHECK(author.describes == 2);
    CHECK(log.all()[id].evidence["stalls"] == 1);
    CHECK(author.describes == 2);  // nothing behind any more

    author.stalls[0] = 3;
    log.changed(id);
    CHECK(log.allButEvidence()[id].summary == "3 stalls");
    CHECK(log.allButEvidence()[id].evidence["stalls"] == 1);  // as the last full read left it
    CHECK(author.describes == 3);

    author.stalls[0] = 4;
    log.changed(id);  // changed again while its evidence is behind: one description brings both
    CHECK(log.all()[id].evidence["stalls"] == 4);
    CHECK(log.all()[id].summary == "4 stalls");
    CHECK(author.describes == 4);
    CHECK(author.evidenceWrites == 2);

    author.stalls[0] = 5;
    log.changed(id);
    CHECK(log.allButEvidence()[id].summary == "5 stalls");
    CHECK(log.release()[id].evidence["stalls"] == 5);  // released findings carry their evidence
}

TEST_CASE("finding log listener sees a finding described at its first change", "[detect][finding_log]") {
    FindingLog log;
    CountingAuthor author;
    author.stalls = {0};
    std::vector<std::string> heard;
    log.setListener([&](const Finding& finding, bool isNew) { heard.push_back((isNew ? "new " : "") + finding.summary); });
    const uint32_t id = log.add(findingOfKind(FindingKind::RetransmissionStall), &author, 0);
    for (int stall = 1; stall <= 5; ++stall) {
        author.stalls[0] = stall;
        log.changed(id);
    }
    // Every change is heard; the finding is described again at changes 1, 2 and 4 only.
    CHECK(heard == std::vector<std::string>{"new ", "1 stalls", "2 stalls", "2 stalls", "4 stalls", "4 stalls"});
    CHECK(log.all()[id].summary == "5 stalls");  // a read brings it up to date
}

TEST_CASE("finding log describes many stale findings once each, split over two threads", "[detect][finding_log]") {
    // At the end of an analysis thousands of findings are stale and describeStale shares them
    // out over a second core; a listener's describe lists an id again when it goes stale again.
    class ThreadSafeAuthor : public FindingAuthor {
    public:
        std::vector<int> stalls;
        mutable std::atomic<int> describes{0};

        void describe(uint32_t record, Finding& finding, Detail /*detail*/) const override {
            ++describes;
            finding.summary = std::to_string(stalls.at(record)) + " stalls";
            finding.evidence["record"] = record;
        }
        void measure(uint32_t /*record*/, Finding& /*finding*/) const override {}
    };
    FindingLog log;
    ThreadSafeAuthor author;
    constexpr uint32_t kFindings = 3000;
    author.stalls.assign(kFindings, 0);
    log.setListener([](const Finding& /*finding*/, bool /*isNew*/) {});
    for (uint32_t record = 0; record < kFindings; ++record) {
        const uint32_t id = log.add(findingOfKind(FindingKind::RetransmissionStall), &author, record);
        for (uint32_t change = 0; change <= record % 5; ++change) {
            ++author.stalls[record];
            log.changed(id);
        }
    }
    // The listener saw each described at changes 1, 2 and 4: those with 3 or 5 changes are stale
    // (and listed two or three times).
    const int stale = static_cast<int>(kFindings) / 5 * 2;
    author.describes = 0;
    const FindingList released = log.release();
    CHECK(author.describes == stale);  // once each, the repeated ids skipped
    REQUIRE(released.size() == kFindings);
    for (uint32_t id = 0; id < kFindings; ++id) {
        CAPTURE(id);
        CHECK(released[id].summary == std::to_string(id % 5 + 1) + " stalls");
        CHECK(released[id].evidence["record"] == id);
    }
}

TEST_CASE("finding log released measured leaves each finding to be described once it is read",
          "[detect][finding_log]") {
    FindingLog log;
    CountingAuthor author;
    author.stalls = {3, 5};
    const uint32_t first = log.add(findingOfKind(FindingKind::DelayedAckStall), &author, 0);
    Finding plain = findingOfKind(FindingKind::SynBacklogOverflow);
    plain.summary = "as given";
    log.add(plain);
    const uint32_t second = log.add(findingOfKind(FindingKind::DelayedAckStall), &author, 1);
    log.changed(second);

    const FindingList measured = log.releaseMeasured();
    CHECK(author.describes == 0);  // nothing described at the release
    CHECK(author.measures == 2);   // each authored finding measured once
    REQUIRE(measured.size() == 3);
    CHECK(measured[first].durationMs == 30);
    CHECK(measured[first].summary.empty());
    CHECK(measured[second].durationMs == 50);
    CHECK(log.describesLater(measured[first]));
    CHECK_FALSE(log.describesLater(measured[1]));
    CHECK(measured[1].summary == "as given");

    Finding described = measured[second];
    log.describeReleased(described);
    CHECK(described.summary == "5 stalls");
    CHECK(described.evidence["stalls"] == 5);
    CHECK(described.durationMs == 50);
    CHECK(measured[second].summary.empty());  // the released list itself is left as it was
}

TEST_CASE("finding log released measured is for analyses without provisional findings", "[detect][finding_log]") {
    FindingLog log;
    log.addProvisional(findingOfKind(FindingKind::RetransmissionStall));
    CHECK_THROWS_AS(log.releaseMeasured(), std::logic_error);
}
