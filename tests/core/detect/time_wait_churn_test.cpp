// time_wait_churn with connections built in code: which side closes first, the estimated
// TIME_WAIT population (entries expire, or end when the tuple is reused), the close rate, and
// when the population is large enough for a warning.
#include <catch2/catch.hpp>

#include <algorithm>

#include "detect/time_wait_detector.hpp"
#include "port_test_conversation.hpp"

using namespace tcpscope;

namespace {

using ChurnSession = test::DetectorSession<TimeWaitDetector>;
using Tcp = test::Conversation<ChurnSession>;

// `count` connections from 10.0.0.1 to 10.0.0.2:9000 on ports 40000 + first + i, one every
// `everyMs` from `startMs`; `closer` closes first.
void connections(ChurnSession& session, int first, int count, double startMs, double everyMs, Side closer) {
    for (int index = 0; index < count; ++index) {
        Tcp tcp(session, "10.0.0.1", static_cast<uint16_t>(40000 + first + index), "10.0.0.2", 9000,
                1000U + 100U * static_cast<uint32_t>(first + index), 5000);
        tcp.exchange(startMs + index * everyMs, closer);
    }
}

}  // namespace

TEST_CASE("time_wait_churn: a client that closes first accumulates TIME_WAIT", "[time_wait_churn]") {
    ChurnSession session;
    connections(session, 0, 30, 0, 10, Side::Client);
    session.finish();

    const auto findings = session.findings(FindingKind::TimeWaitChurn);
    REQUIRE(findings.size() == 1);
    const Finding& finding = findings[0];
    CHECK(finding.severity == Severity::Info);
    CHECK(finding.connection == kNoConnection);
    const auto& evidence = finding.evidence;
    CHECK(evidence["host"] == "10.0.0.1");
    CHECK(evidence["role"] == "client");
    CHECK(evidence["why"] == "client_closes_first");
    CHECK(evidence["active_closes"] == 30);
    CHECK(evidence["peak_population"] == 30);
    CHECK(evidence["peak_closes_per_s"] == 30);
    CHECK(evidence["mean_closes_per_s"].get<double>() == Approx(30));  // spread over less than a second
    CHECK(evidence["servers"][0]["server"] == "10.0.0.2:9000");
    CHECK(evidence["series"].back()[1] == 30);
    CHECK(evidence["series"].size() <= 200);
    // The rate over time accounts for every close.
    double closes = 0;
    for (const auto& point : evidence["closes_per_s_series"]) {
        closes += point[1].get<double>() * evidence["series_step_s"].get<double>();
    }
    CHECK(closes == Approx(30));
    CHECK_THAT(finding.summary,
               Catch::Contains("client 10.0.0.1 closed 30 connections first") && Catch::Contains("keep-alive"));
}

TEST_CASE("time_wait_churn: a server that closes first is named as the holder", "[time_wait_churn]") {
    ChurnSession session;
    connections(session, 0, 25, 0, 1, Side::Server);
    session.finish();

    const auto findings = session.findings(FindingKind::TimeWaitChurn);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].evidence["host"] == "10.0.0.2");
    CHECK(findings[0].evidence["role"] == "server");
    CHECK(findings[0].evidence["why"] == "server_closes_first");
    CHECK_THAT(findings[0].summary, Catch::Contains("HTTP/1.0 server without keep-alive"));
}

TEST_CASE("time_wait_churn: fewer closes than the minimum give no finding", "[time_wait_churn]") {
    ChurnSession session;
    connections(session, 0, 19, 0, 10, Side::Client);
    session.finish();
    CHECK(session.findings(FindingKind::TimeWaitChurn).empty());
}

TEST_CASE("time_wait_churn: entries expire after the TIME_WAIT length", "[time_wait_churn]") {
    ChurnSession session;
    connections(session, 0, 25, 0, 100, Side::Client);        // 25 closes in 2.5 s
    connections(session, 25, 10, 70'000, 100, Side::Client);  // 70 s later: the first 25 have expired
    session.finish();

    const auto findings = session.findings(FindingKind::TimeWaitChurn);
    REQUIRE(findings.size() == 1);
    const auto& evidence = findings[0].evidence;
    CHECK(evidence["active_closes"] == 35);
    CHECK(evidence["peak_population"] == 25);
    CHECK(evidence["population_now"] == 10);
    CHECK(evidence["peak_closes_per_s"] == 10);
    // The series falls to zero between the two bursts.
    bool sawEmpty = false;
    for (const auto& point : evidence["series"]) {
        sawEmpty = sawEmpty || (point[0].get<double>() > 63 && point[0].get<double>() < 69 && point[1] == 0);
    }
    CHECK(sawEmpty);
}

TEST_CASE("time_wait_churn: a new SYN on the tuple ends its TIME_WAIT entry", "[time_wait_churn]") {
    ChurnSession session;
    // 5 ports, each reused 6 times, the server closing first: at most 5 entries at once.
    for (int round = 0; round < 6; ++round) {
        for (int port = 0; port < 5; ++port) {
            Tcp tcp(session, "10.0.0.1", static_cast<uint16_t>(41000 + port), "10.0.0.2", 8080,
                    1'000'000U * static_cast<uint32_t>(round + 1) + static_cast<uint32_t>(port), 5000);
            tcp.exchange(round * 10.0 + port, Side::Server);
        }
    }
    session.finish();

    const auto findings = session.findings(FindingKind::TimeWaitChurn);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].evidence["active_closes"] == 30);
    CHECK(findings[0].evidence["peak_population"] == 5);
}

TEST_CASE("time_wait_churn: aborted connections leave no TIME_WAIT", "[time_wait_churn]") {
    ChurnSession session;
    for (int index = 0; index < 30; ++index) {
        Tcp tcp(session, "10.0.0.1", static_cast<uint16_t>(40000 + index), "10.0.0.2", 9000, 1000, 5000);
        tcp.handshake(index);
        tcp.serverRst(index + 0.5);
    }
    session.finish();
    CHECK(session.findings(FindingKind::TimeWaitChurn).empty());
}

TEST_CASE("time_wait_churn: a population above the set share of the port range is a warning", "[time_wait_churn]") {
    DetectorOptions options;
    options.portRangeLow = 40000;
    options.portRangeHigh = 40099;
    options.portRangeGiven = true;
    ChurnSession session(options);
    connections(session, 0, 20, 0, 1, Side::Client);
    // Live: the finding is info until the population passes 10 of the 100 ports... which it
    // already has at the 20th close, the first moment a finding is made.
    REQUIRE(session.findings(FindingKind::TimeWaitChurn).size() == 1);
    CHECK(session.findings(FindingKind::TimeWaitChurn)[0].severity == Severity::Warning);
    session.finish();
    const Finding finding = session.findings(FindingKind::TimeWaitChurn)[0];
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.evidence["peak_share_of_port_range"].get<double>() == Approx(0.2));
    CHECK_THAT(finding.summary, Catch::Contains("20.0% of the 100-port range 40000-40099"));
}

// A host keeps only its close times until it reaches the minimum; the finding must still count
// the closes before that, with their servers and their rate.
TEST_CASE("time_wait_churn: the closes before the minimum count in the finding with their servers",
          "[time_wait_churn]") {
    ChurnSession session;
    for (int index = 0; index < 25; ++index) {
        // 12 closes towards 10.0.0.2:9000 first (fewer than the minimum of 20), then 13 towards :9001.
        const uint16_t serverPort = index < 12 ? 9000 : 9001;
        Tcp tcp(session, "10.0.0.1", static_cast<uint16_t>(40000 + index), "10.0.0.2", serverPort,
                1000U + 100U * static_cast<uint32_t>(index), 5000);
        tcp.exchange(index * 100.0, Side::Client);
    }
    session.finish();

    const Finding finding = session.onlyFinding(FindingKind::TimeWaitChurn);
    const auto& evidence = finding.evidence;
    CHECK(finding.tsNs == ChurnSession::kStartNs + 600'000);  // the first close (the server's FIN, 0.6 ms in)
    CHECK(evidence["active_closes"] == 25);
    REQUIRE(evidence["servers"].size() == 2);
    CHECK(evidence["servers"][0]["server"] == "10.0.0.2:9000");
    CHECK(evidence["servers"][0]["closes"] == 12);
    CHECK(evidence["servers"][1]["server"] == "10.0.0.2:9001");
    CHECK(evidence["servers"][1]["closes"] == 13);
    CHECK(evidence["peak_closes_per_s"] == 10);  // one close every 100 ms
    CHECK(evidence["closes_span_s"].get<double>() == Approx(2.4));
    double closes = 0;
    for (const auto& point : evidence["closes_per_s_series"]) {
        closes += point[1].get<double>() * evidence["series_step_s"].get<double>();
    }
    CHECK(closes == Approx(25));
}

TEST_CASE("time_wait_churn: hosts whose early closes interleave each count only their own",
          "[time_wait_churn]") {
    // The closes before the minimum of every host share one store, each host's chained in order,
    // and a host's entries are reused once its tally is built. Client .1 and .3 close 19 times
    // each, interleaved; .1's 20th close builds its tally, then .4's early closes take .1's
    // entries while .3's are still held; then .3 and .4 close their 20th. Each finding must hold
    // its own 20 closes, towards its own server, from its own first close on.
    ChurnSession session;
    const auto close = [&session](const char* client, uint16_t clientPort, uint16_t serverPort, double atMs) {
        Tcp tcp(session, client, clientPort, "10.0.0.2", serverPort, 1000U + 100U * clientPort, 5000);
        tcp.exchange(atMs, Side::Client);
    };
    for (int round = 0; round < 19; ++round) {
        close("10.0.0.1", static_cast<uint16_t>(40000 + round), 9000, round * 100.0);
        close("10.0.0.3", static_cast<uint16_t>(41000 + round), 9001, round * 100.0 + 30);
    }
    close("10.0.0.1", 40019, 9000, 1900);
    for (int round = 20; round < 39; ++round) {
        close("10.0.0.4", static_cast<uint16_t>(42000 + round), 9002, round * 100.0 + 60);
    }
    close("10.0.0.3", 41019, 9001, 3930);
    close("10.0.0.4", 42039, 9002, 3960);
    session.finish();

    const auto findings = session.findings(FindingKind::TimeWaitChurn);
    REQUIRE(findings.size() == 3);
    const struct {
        const char* host;
        const char* server;
        double firstCloseMs;
    } expected[] = {{"10.0.0.1", "10.0.0.2:9000", 0.6}, {"10.0.0.3", "10.0.0.2:9001", 30.6},
                    {"10.0.0.4", "10.0.0.2:9002", 2060.6}};
    for (const auto& [host, server, firstCloseMs] : expected) {
        const auto finding = std::find_if(findings.begin(), findings.end(),
                                          [&](const Finding& made) { return made.evidence["host"] == host; });
        REQUIRE(finding != findings.end());
        CAPTURE(host);
        CHECK(finding->tsNs == ChurnSession::kStartNs + static_cast<int64_t>(firstCloseMs * 1e6));
        CHECK(finding->evidence["active_closes"] == 20);
        REQUIRE(finding->evidence["servers"].size() == 1);
        CHECK(finding->evidence["servers"][0]["server"] == server);
        CHECK(finding->evidence["servers"][0]["closes"] == 20);
        CHECK(finding->evidence["peak_population"] == 20);
    }
}
