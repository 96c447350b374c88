// What the incident report's pictures of population kinds say, without Qt: a delayed handshake's
// label, and the marks of a port pool (its pause, its limit) when no strace log was given.
#include <catch2/catch.hpp>

#include "present/handshake_retries.hpp"
#include "present/port_pool_marks.hpp"
#include "report/incident_sections.hpp"

using namespace tcpscope;

TEST_CASE("a delayed handshake's label says its wait, its retries and its answer", "[report][pictures]") {
    RetriedHandshake handshake;
    handshake.firstSynNs = 1'795'231'756'240'000'000;
    handshake.retriedSynsNs = {handshake.firstSynNs + 1'000'000'000, handshake.firstSynNs + 3'000'000'000};
    handshake.answerNs = handshake.firstSynNs + 3'000'400'000;
    handshake.waitNs = *handshake.answerNs - handshake.firstSynNs;
    CHECK(retriedHandshakeLabel(handshake, TimeOrigin{}) == "+3.00 s: SYN retried 2x, answered at 03:29:19.240 UTC");
    handshake.answerNs.reset();
    handshake.waitNs = 3'000'000'000;
    CHECK(retriedHandshakeLabel(handshake, TimeOrigin{}) == "+3.00 s: SYN retried 2x, never answered");
}

TEST_CASE("churn sample without strace: one pause of 60.6 s, the limit of 100 ports, no failed calls",
          "[report][pictures]") {
    const CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/churn-exhaustion.pcap"}, {});
    const std::vector<ReportSection> sections = reportSections(analysis);
    REQUIRE_FALSE(sections.empty());
    const CapturePopulation population = capturePopulation(analysis);
    for (const ReportSection& section : sections) {
        if (section.picture != SectionPicture::PortPool) {
            continue;
        }
        INFO(sectionTitle(analysis, section.group));
        const PortPoolMarks marks = portPoolMarks(analysis, section.group.findings, &population, nullptr);
        REQUIRE(marks.pauses.size() == 1);  // TIME_WAIT churn shows the pause it led to
        CHECK(marks.pauses.front().label.rfind("pause: no new connection for 60.", 0) == 0);
        CHECK(marks.limitLabel == "limit: 100 ports");
        CHECK(marks.failedConnectsNs.empty());
        CHECK(marks.failedConnectsLabel.empty());
        const std::string note = portPoolNote(marks);
        INFO(note);
        CHECK(note.find("against the limit of its port range (dashed, 100 ports)") != std::string::npos);
        CHECK(note.find("shaded: 1 pause during which no new connection could be made") != std::string::npos);
        CHECK(note.find("EADDRNOTAVAIL") == std::string::npos);
    }
}

TEST_CASE("backlog sample: when not every delayed handshake fits, the longest waits are drawn", "[report][pictures]") {
    const CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/backlog-overflow.pcap"}, {});
    const std::vector<ReportSection> sections = reportSections(analysis);
    REQUIRE_FALSE(sections.empty());
    REQUIRE(sections.front().picture == SectionPicture::Handshakes);
    const HandshakeRetries all = handshakeRetries(analysis, sections.front().group.findings, 100);
    REQUIRE(all.rows.size() == 18);
    CHECK(all.leftOut == 0);
    CHECK(handshakesLeftOutText(all).empty());

    const HandshakeRetries five = handshakeRetries(analysis, sections.front().group.findings, 5);
    REQUIRE(five.rows.size() == 5);
    CHECK(five.leftOut == 13);
    CHECK(handshakesLeftOutText(five) == "13 more delayed handshakes not drawn: these rows are the longest waits");
    int64_t shortestDrawnNs = INT64_MAX;
    for (const RetriedHandshake& row : five.rows) {
        shortestDrawnNs = std::min(shortestDrawnNs, row.waitNs);
    }
    size_t longer = 0;
    for (const RetriedHandshake& row : all.rows) {
        longer += row.waitNs > shortestDrawnNs ? 1 : 0;
    }
    CHECK(longer < 5);  // none left out waited longer than the shortest drawn
    // Drawn in the order the clients began.
    for (size_t index = 1; index < five.rows.size(); ++index) {
        CHECK(five.rows[index - 1].firstSynNs <= five.rows[index].firstSynNs);
    }
    CHECK(handshakeRetriesNote(five).find("13 more delayed handshakes not drawn") != std::string::npos);
}
