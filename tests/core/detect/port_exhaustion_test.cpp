// port_exhaustion with connections built in code: a client that runs through a small port
// range and pauses until TIME_WAIT frees the same ports (error, costing the pause), a rate that
// would run out of the range within one TIME_WAIT length (warning), and the look-alikes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>

#include "detect/port_exhaustion_detector.hpp"
#include "port_test_conversation.hpp"

using namespace tcpscope;

namespace {

using ExhaustionSession = test::DetectorSession<PortExhaustionDetector>;
using Tcp = test::Conversation<ExhaustionSession>;

struct Client {
    ExhaustionSession& session;
    uint32_t nextIsn = 1000;

    // One short connection from `port`, closed first by `closer`.
    void connect(uint16_t port, double atMs, Side closer = Side::Client) {
        Tcp tcp(session, "10.0.0.1", port, "10.0.0.2", 9000, nextIsn, 5000);
        nextIsn += 100'000;
        tcp.exchange(atMs, closer);
    }
};

}  // namespace

TEST_CASE("port_exhaustion: a client that runs out of ports pauses until TIME_WAIT frees them", "[port_exhaustion]") {
    ExhaustionSession session;
    Client client{session};
    // 40 ports 40000-40039, one connection per ms, the client closing first...
    for (uint16_t index = 0; index < 40; ++index) {
        client.connect(static_cast<uint16_t>(40000 + index), index);
    }
    // ... then nothing until the first TIME_WAIT expires, then the same ports again.
    for (uint16_t index = 0; index < 10; ++index) {
        client.connect(static_cast<uint16_t>(40000 + index), 60'500.0 + index);
    }
    session.finish();

    const auto findings = session.findings(FindingKind::PortExhaustion);
    REQUIRE(findings.size() == 1);
    const Finding& finding = findings[0];
    CHECK(finding.severity == Severity::Error);
    CHECK(finding.connection == kNoConnection);
    CHECK(finding.durationMs == Approx(60'500 - 39));
    const auto& evidence = finding.evidence;
    CHECK(evidence["client"] == "10.0.0.1");
    CHECK(evidence["server"] == "10.0.0.2:9000");
    CHECK(evidence["observed_port_range"] == "40000-40039");
    CHECK(evidence["distinct_ports"] == 40);
    CHECK(evidence["peak_ports_in_use"] == 40);
    CHECK(evidence["pause_count"] == 1);
    CHECK(evidence["pauses"][0]["ports_in_use"] == 40);
    CHECK(evidence["pauses"][0]["reused_port"] == 40000);
    CHECK(evidence["capacity_per_s"].get<double>() == Approx(470.5));
    CHECK(evidence["observed_capacity_per_s"].get<double>() == Approx(0.67));
    CHECK(evidence["series"].size() <= 200);
    CHECK_THAT(finding.summary, Catch::Contains("ran out of ephemeral ports") && Catch::Contains("ab -k") &&
                                    Catch::Contains("ip_local_port_range") && Catch::Contains("tcp_tw_reuse") &&
                                    Catch::Contains("tcp_fin_timeout does not shorten TIME_WAIT") &&
                                    Catch::Contains("removed in Linux 4.12"));
}

TEST_CASE("port_exhaustion: a pause that is not caused by the ports is not reported", "[port_exhaustion]") {
    SECTION("the pause is short") {
        ExhaustionSession session;
        Client client{session};
        for (uint16_t index = 0; index < 40; ++index) {
            client.connect(static_cast<uint16_t>(40000 + index), index);
        }
        client.connect(40000, 10'000);  // only 10 s later
        session.finish();
        CHECK(session.findings(FindingKind::PortExhaustion).empty());
    }
    SECTION("the connection after the pause takes a fresh port") {
        ExhaustionSession session;
        Client client{session};
        for (uint16_t index = 0; index < 40; ++index) {
            client.connect(static_cast<uint16_t>(40000 + index), index);
        }
        client.connect(50000, 60'500);
        session.finish();
        CHECK(session.findings(FindingKind::PortExhaustion).empty());
    }
    SECTION("the server closed first, so the client held no ports") {
        ExhaustionSession session;
        Client client{session};
        for (uint16_t index = 0; index < 40; ++index) {
            client.connect(static_cast<uint16_t>(40000 + index), index, Side::Server);
        }
        client.connect(40000, 60'500, Side::Server);
        session.finish();
        CHECK(session.findings(FindingKind::PortExhaustion).empty());
    }
    SECTION("too few ports were in use") {
        ExhaustionSession session;
        Client client{session};
        for (uint16_t index = 0; index < 5; ++index) {
            client.connect(static_cast<uint16_t>(40000 + index), index);
        }
        client.connect(40000, 60'500);
        session.finish();
        CHECK(session.findings(FindingKind::PortExhaustion).empty());
    }
}

TEST_CASE("port_exhaustion: a rate that would use up the range within TIME_WAIT is a warning", "[port_exhaustion]") {
    ExhaustionSession session;
    Client client{session};
    // 600 connections per second for 2 s, the client closing first: 600 x 60 s = 36000 ports,
    // more than the 28232 of 32768-60999, though the capture ends long before.
    for (uint32_t index = 0; index < 1200; ++index) {
        client.connect(static_cast<uint16_t>(33000 + index), index / 0.6);
    }
    session.finish();

    const auto findings = session.findings(FindingKind::PortExhaustion);
    REQUIRE(findings.size() == 1);
    const Finding& finding = findings[0];
    CHECK(finding.severity == Severity::Warning);
    CHECK(finding.durationMs == 0);
    CHECK(finding.evidence["peak_rate_per_s"].get<double>() == Approx(600).epsilon(0.01));
    CHECK(finding.evidence["seconds_to_exhaust"].get<double>() == Approx(47).margin(1));
    CHECK(finding.evidence["peak_ports_in_use"] == 1200);
    CHECK_THAT(finding.summary, Catch::Contains("runs out after about 47 s") && Catch::Contains("keep-alive"));
}

TEST_CASE("port_exhaustion: a rate the range sustains is not reported", "[port_exhaustion]") {
    ExhaustionSession session;
    Client client{session};
    for (uint32_t index = 0; index < 600; ++index) {  // 200/s for 3 s
        client.connect(static_cast<uint16_t>(33000 + index), index * 5.0);
    }
    session.finish();
    CHECK(session.findings(FindingKind::PortExhaustion).empty());
}

TEST_CASE("port_exhaustion: a given port range sets the capacity", "[port_exhaustion]") {
    DetectorOptions options;
    options.portRangeLow = 40000;
    options.portRangeHigh = 40999;  // 1000 ports: 16.7 connections/s
    options.portRangeGiven = true;
    ExhaustionSession session(options);
    Client client{session};
    for (uint32_t index = 0; index < 60; ++index) {  // 20/s for 3 s
        client.connect(static_cast<uint16_t>(40000 + index), index * 50.0);
    }
    session.finish();

    const auto findings = session.findings(FindingKind::PortExhaustion);
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Warning);
    CHECK(findings[0].evidence["port_range"] == "40000-40999");
    CHECK(findings[0].evidence["port_range_given"] == true);
    CHECK(findings[0].evidence["capacity_per_s"].get<double>() == Approx(16.7));
}

namespace {

// The ports-in-use series the detector hands out at the end for the pool of 10.0.0.1 -> 10.0.0.2:9000.
std::vector<HostPopulation> portPopulations(ExhaustionSession& session) {
    std::vector<HostPopulation> found;
    for (HostPopulation& population : session.log.releasePopulations()) {
        if (population.kind == HostPopulation::Kind::PortsInUse) {
            found.push_back(std::move(population));
        }
    }
    return found;
}

}  // namespace

// A pool that saw one connection keeps almost nothing; once a second one comes, its series must
// still start at the first connection's SYN and count its port while that one held it.
TEST_CASE("port_exhaustion: a client's first connection counts in the ports-in-use series once a second one comes",
          "[port_exhaustion]") {
    SECTION("the first connection is in TIME_WAIT when the second starts") {
        ExhaustionSession session;
        Client client{session};
        client.connect(40000, 0);     // closed by the client first: its port stays in use for 60 s
        client.connect(40001, 1000);  // a second port while the first is in TIME_WAIT
        std::vector<HostPopulation> live;
        const std::array<uint8_t, 4> clientAddress{10, 0, 0, 1};
        session.detector.addPopulationsOf(IpAddress::fromV4(clientAddress.data()), live);
        session.finish();

        const std::vector<HostPopulation> populations = portPopulations(session);
        REQUIRE(populations.size() == 1);
        const HostPopulation& pool = populations[0];
        CHECK(pool.server.toString() == "10.0.0.2:9000");
        CHECK(pool.observedLowPort == 40000);
        CHECK(pool.observedHighPort == 40001);
        CHECK(pool.series.startTsNs() == ExhaustionSession::kStartNs);  // the first SYN
        CHECK(pool.series.peak() == 2);
        CHECK(pool.series.peakTsNs() == ExhaustionSession::kStartNs + 1'000'000'000);
        CHECK(pool.series.value() == 2);  // both ports are still in TIME_WAIT when the capture ends
        REQUIRE(live.size() == 1);        // the live host chart saw the same series while it ran
        CHECK(live[0].series.peak() == 2);
        CHECK(live[0].series.startTsNs() == ExhaustionSession::kStartNs);
    }
    SECTION("the first connection was reset and its SYN sent again before the second came") {
        ExhaustionSession session;
        Tcp first(session, "10.0.0.1", 40000, "10.0.0.2", 9000, 1000, 5000);
        first.syn(0);
        first.serverRst(1);    // refused: the port is free again ...
        first.syn(3000);       // ... and taken again by the SYN sent once more
        first.synAck(3001);
        first.handshakeAck(3002);
        Client client{session, 200'000};
        client.connect(40001, 5000);  // a second port while the first connection is open
        session.finish();

        const std::vector<HostPopulation> populations = portPopulations(session);
        REQUIRE(populations.size() == 1);
        const PopulationSeries& series = populations[0].series;
        CHECK(series.startTsNs() == ExhaustionSession::kStartNs);
        CHECK(series.peak() == 2);
        CHECK(series.value() == 2);  // the first connection never closed, the second is in TIME_WAIT
        // 1 during the first millisecond, 0 until the SYN at 3 s, then 1, 2 at 5 s.
        const std::vector<int64_t> maxima = series.bucketMaxima();
        REQUIRE(!maxima.empty());
        CHECK(maxima.front() == 1);
        CHECK(std::count(maxima.begin(), maxima.end(), 0) > 0);
        CHECK(maxima.back() == 2);
    }
    SECTION("a client that connects once to each server has no series") {
        ExhaustionSession session;
        for (uint16_t index = 0; index < 50; ++index) {
            Tcp tcp(session, "10.0.0.1", static_cast<uint16_t>(40000 + index), "10.0.0.2",
                    static_cast<uint16_t>(9000 + index), 1000, 5000);
            tcp.exchange(index, Side::Client);
        }
        session.finish();
        CHECK(portPopulations(session).empty());
        CHECK(session.findings(FindingKind::PortExhaustion).empty());
    }
}
