// The population view's counts: a connection's life (handshake wait, open, TIME_WAIT), the
// groups by client host and server endpoint, the counts per pixel column, and the peaks, on
// connections built here and on the churn and backlog samples.
#include "series/endpoint_groups.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <numeric>
#include <string>

#include "analysis/capture_analysis.hpp"
#include "series/capture_population.hpp"
#include "series/stretch_count.hpp"

using namespace tcpscope;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kTimeWaitNs = 60'000 * kMs;

// 10.0.0.N
IpAddress host(uint8_t last) {
    const uint8_t bytes[4] = {10, 0, 0, last};
    return IpAddress::fromV4(bytes);
}

Endpoint endpoint(uint8_t last, uint16_t port) {
    return {host(last), port};
}

// A connection from its first SYN at `startMs`, answered at `acceptMs`, closed by the client at `closeMs`.
Connection closedConnection(int64_t startMs, int64_t acceptMs, int64_t closeMs) {
    Connection connection;
    connection.firstTsNs = startMs * kMs;
    connection.lastTsNs = closeMs * kMs;
    connection.synTsNs = connection.firstTsNs;
    connection.synAckTsNs = acceptMs * kMs;
    connection.handshakeAckTsNs = acceptMs * kMs;
    connection.closeTsNs = closeMs * kMs;
    connection.state = ConnectionState::Closed;
    connection.hasActiveCloser = true;
    connection.sent[sideIndex(Side::Client)].sawSyn = true;
    connection.client = endpoint(1, 40000);
    connection.server = endpoint(2, 80);
    return connection;
}

CaptureAnalysis analyzeSample(const std::string& name) {
    const std::filesystem::path path = std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name;
    REQUIRE(std::filesystem::exists(path));
    return analyzeCaptures({path.string()}, {});
}

std::vector<ConnectionLife> livesOf(const CaptureAnalysis& analysis) {
    std::vector<ConnectionLife> lives;
    const ConnectionStore& connections = analysis.engine->connections();
    for (size_t id = 0; id < connections.size(); ++id) {
        lives.push_back(connectionLife(connections[id], kTimeWaitNs));
    }
    return lives;
}

std::vector<uint32_t> allIds(const CaptureAnalysis& analysis) {
    std::vector<uint32_t> ids(analysis.engine->connections().size());
    std::iota(ids.begin(), ids.end(), 0u);
    return ids;
}

}  // namespace

TEST_CASE("a connection's life: the handshake wait, open until the second FIN, then TIME_WAIT") {
    const ConnectionLife life = connectionLife(closedConnection(100, 3100, 3200), kTimeWaitNs);
    CHECK(life.startNs == 100 * kMs);
    CHECK(life.establishedNs == 3100 * kMs);  // a SYN retried for 3 s
    CHECK(life.closedNs == 3200 * kMs);
    CHECK(life.timeWaitEndNs == 3200 * kMs + kTimeWaitNs);

    SECTION("a reset leaves no TIME_WAIT") {
        Connection reset = closedConnection(0, 1, 5);
        reset.state = ConnectionState::Reset;
        const ConnectionLife resetLife = connectionLife(reset, kTimeWaitNs);
        CHECK(resetLife.timeWaitEndNs == resetLife.closedNs);
    }
    SECTION("a SYN never answered waits until its last retry") {
        Connection unanswered = closedConnection(0, 0, 7000);
        unanswered.synAckTsNs = kNoTime;
        unanswered.handshakeAckTsNs = kNoTime;
        unanswered.closeTsNs = kNoTime;
        unanswered.state = ConnectionState::SynSent;
        const ConnectionLife waiting = connectionLife(unanswered, kTimeWaitNs);
        CHECK(waiting.establishedNs == 7000 * kMs);
        CHECK(waiting.timeWaitEndNs == waiting.closedNs);
    }
    SECTION("a connection seen midstream never waited") {
        Connection midstream = closedConnection(10, 20, 30);
        midstream.midstream = true;
        CHECK(connectionLife(midstream, kTimeWaitNs).establishedNs == 10 * kMs);
    }
}

TEST_CASE("a TIME_WAIT ends at the accepted SYN of the next connection on its 4-tuple, not before it") {
    // #0 closed by the client at 1 s; #1 reuses its tuple, as later connections below.
    const auto reuse = [](int64_t synMs, int64_t acceptMs) {
        Connection later = closedConnection(synMs, acceptMs, acceptMs + 10);
        later.reusedFrom = 0;
        if (acceptMs < 0) {
            later.synAckTsNs = kNoTime;
            later.handshakeAckTsNs = kNoTime;
        }
        return later;
    };
    const auto timeWaitEndOf = [](const Connection& later) {
        ConnectionStore connections;
        connections.append(closedConnection(0, 1, 1000));
        connections.append(later);
        return connectionLives(connections, kTimeWaitNs).front().timeWaitEndNs;
    };
    CHECK(timeWaitEndOf(reuse(1500, 1501)) == 1500 * kMs);                    // accepted: the holder let it in
    CHECK(timeWaitEndOf(reuse(1500, -1)) == 1000 * kMs + kTimeWaitNs);        // never answered: it stays
    CHECK(timeWaitEndOf(reuse(70'000, 70'001)) == 1000 * kMs + kTimeWaitNs);  // after it expired anyway
    // A collision: the first SYN got the old connection's ACK, the sender's RST removed the TIME_WAIT
    // and the same SYN again (synTsNs moves to it) was accepted.
    Connection collided = reuse(1500, 1516);
    collided.synTsNs = 1515 * kMs;
    CHECK(timeWaitEndOf(collided) == 1515 * kMs);
    // Every other life is connectionLife()'s.
    ConnectionStore connections;
    connections.append(closedConnection(0, 1, 1000));
    connections.append(reuse(1500, 1501));
    CHECK(connectionLives(connections, kTimeWaitNs).back().timeWaitEndNs ==
          connectionLife(connections[1], kTimeWaitNs).timeWaitEndNs);
}

TEST_CASE("density per column counts each connection once in every column it touches") {
    // 10 columns of 100 ms from 0.
    DensityGrid grid(0, 100.0 * kMs, 10);
    grid.add(PopulationState::Open, 50 * kMs, 250 * kMs);     // columns 0-2
    grid.add(PopulationState::Open, 200 * kMs, 200 * kMs);    // an instant: column 2
    grid.add(PopulationState::Open, -500 * kMs, 20 * kMs);    // from before the range: column 0
    grid.add(PopulationState::Open, 2000 * kMs, 3000 * kMs);  // after it: nothing
    CHECK(grid.counts(PopulationState::Open) == std::vector<uint32_t>{2, 1, 2, 0, 0, 0, 0, 0, 0, 0});

    grid.addLife(connectionLife(closedConnection(0, 300, 400), kTimeWaitNs), 800 * kMs);
    CHECK(grid.counts(PopulationState::SynWait) == std::vector<uint32_t>{1, 1, 1, 1, 0, 0, 0, 0, 0, 0});
    // TIME_WAIT from the close to the end of the capture (800 ms), not the 60 s it lasts.
    CHECK(grid.counts(PopulationState::TimeWait) == std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 1, 1, 1, 0});
    CHECK(grid.counts(PopulationState::Stalled) == std::vector<uint32_t>(10, 0));
}

TEST_CASE("peaks count connections at one instant, a stretch ending as the next begins not overlapping it") {
    const std::vector<ConnectionLife> lives{connectionLife(closedConnection(0, 10, 20), kTimeWaitNs),
                                            connectionLife(closedConnection(20, 30, 40), kTimeWaitNs),
                                            connectionLife(closedConnection(25, 26, 27), kTimeWaitNs)};
    const std::vector<StallStretch> stalls{{5 * kMs, 15 * kMs}, {12 * kMs, 13 * kMs}, {30 * kMs, 31 * kMs}};
    const auto peaks = peakPopulation(lives, stalls, 100 * kMs);
    CHECK(peaks[static_cast<size_t>(PopulationState::SynWait)] == 2);   // 20-30 and 25-26
    CHECK(peaks[static_cast<size_t>(PopulationState::Open)] == 1);      // 10-20, 26-27, 30-40 never meet
    CHECK(peaks[static_cast<size_t>(PopulationState::TimeWait)] == 3);  // all three closed before 100 ms
    CHECK(peaks[static_cast<size_t>(PopulationState::Stalled)] == 2);
}

TEST_CASE("groups by client host and server endpoint, in order of their first connection") {
    ConnectionStore connections;
    const auto add = [&connections](uint8_t client, uint16_t clientPort, uint8_t server, uint16_t port) {
        Connection connection;
        connection.client = endpoint(client, clientPort);
        connection.server = endpoint(server, port);
        connections.append(connection);
    };
    add(1, 40000, 9, 80);
    add(2, 40000, 9, 80);
    add(1, 40001, 9, 80);                               // same population as #0: another client port
    add(1, 40002, 9, 443);                              // another listener
    const std::vector<uint32_t> order{0, 1, 2, 3, 99};  // an unknown id is left out
    const std::vector<EndpointGroup> groups = endpointGroups(connections, order);
    REQUIRE(groups.size() == 3);
    CHECK(groups[0].connections == std::vector<uint32_t>{0, 2});
    CHECK(groups[0].server == endpoint(9, 80));
    CHECK(groups[1].client == host(2));
    CHECK(groups[2].connections == std::vector<uint32_t>{3});
}

TEST_CASE("the churn sample is one population whose every port sits in TIME_WAIT") {
    const CaptureAnalysis analysis = analyzeSample("churn-exhaustion.pcap");
    const std::vector<EndpointGroup> groups = endpointGroups(analysis.engine->connections(), allIds(analysis));
    REQUIRE(groups.size() == 1);
    CHECK(groups[0].connections.size() == 150);
    const auto peaks = peakPopulation(livesOf(analysis), {}, analysis.engine->lastTsNs());
    // The client's 100 ports (40000-40099) all in TIME_WAIT before the pause, as time_wait_churn counted.
    CHECK(peaks[static_cast<size_t>(PopulationState::TimeWait)] == 100);

    const CapturePopulation population = capturePopulation(analysis);
    REQUIRE(population.hosts.size() == 1);  // one client host
    CHECK(population.hostsLeftOut == 0);
    const HostPortPool& pool = population.hosts.front();
    REQUIRE(pool.timeWait() != nullptr);
    CHECK(pool.timeWait()->peak == 100);
    REQUIRE(pool.portsInUse() != nullptr);
    CHECK(pool.chart.observedRangePorts == 100);
    CHECK(pool.scaleTop() == 100);  // the range the client kept to, not the 28,232-port range
    CHECK(population.attempts.newConnections.size() == 150);

    // Over the whole capture in 600 columns: the TIME_WAIT row reaches its top before the pause.
    const double seconds = secondsSince(analysis.engine->firstTsNs(), analysis.engine->lastTsNs());
    const std::vector<double> columns = stepColumnMaxima(pool.timeWait()->points, 0, seconds / 600, 600);
    CHECK(*std::max_element(columns.begin(), columns.end()) == 100);
    CHECK(columns[300] == 100);  // half-way through the 60 s pause every port is still in TIME_WAIT
}

TEST_CASE("several client hosts: the busiest first, then those with a port pool worth a row, the rest counted") {
    // hosts-churn: 60, 40, 30, 20 and 12 connections from 127.0.0.2 to .6, each closed first by its host.
    const CaptureAnalysis analysis = analyzeSample("hosts-churn.pcap");
    const CapturePopulation population = capturePopulation(analysis);
    std::vector<std::string> hosts;
    std::vector<int64_t> peaks;
    for (const HostPortPool& pool : population.hosts) {
        hosts.push_back(pool.host.toString());
        REQUIRE(pool.portsInUse() != nullptr);
        peaks.push_back(pool.portsInUse()->peak);
    }
    CHECK(hosts == std::vector<std::string>{"127.0.0.2", "127.0.0.3", "127.0.0.4"});
    CHECK(peaks == std::vector<int64_t>{60, 40, 30});
    CHECK(population.hostsLeftOut == 2);
    CHECK(capturePopulation(analysis, 5).hosts.size() == 5);
    CHECK(capturePopulation(analysis, 5).hostsLeftOut == 0);
    CHECK(capturePopulation(analysis, 1).hostsLeftOut == 4);
}

TEST_CASE("the backlog sample's clients wait on their SYNs together") {
    const CaptureAnalysis analysis = analyzeSample("backlog-overflow.pcap");
    const std::vector<EndpointGroup> groups = endpointGroups(analysis.engine->connections(), allIds(analysis));
    REQUIRE(groups.size() == 1);
    const auto peaks = peakPopulation(livesOf(analysis), {}, analysis.engine->lastTsNs());
    // syn_backlog_overflow: "up to 18 handshakes were in flight at once".
    CHECK(peaks[static_cast<size_t>(PopulationState::SynWait)] == 18);
    const CapturePopulation population = capturePopulation(analysis);
    CHECK(population.attempts.synRetransmissions.size() == 90);  // "the kernel dropped 90 SYNs"
}

TEST_CASE("a staircase read per column holds its value until its last point, then nothing") {
    const std::vector<ChartPoint> points{{0, 0}, {1, 0}, {1, 5}, {2.5, 5}, {2.5, 2}, {4, 2}};
    const std::vector<double> columns = stepColumnMaxima(points, 0, 1, 6);
    CHECK(columns == std::vector<double>{0, 5, 5, 2, 2, 0});
}

TEST_CASE("handshakes waiting: the most at one moment in each column, not the most that touched it") {
    StretchCount waiting;
    // Ten short waits one after another in the first column, then two that overlap from 150 ms.
    for (int64_t at = 0; at < 10; ++at) {
        waiting.add(at * 5 * kMs, at * 5 * kMs + 2 * kMs);
    }
    waiting.add(150 * kMs, 400 * kMs);
    waiting.add(180 * kMs, 220 * kMs);
    waiting.add(300 * kMs, 300 * kMs);  // empty: left out
    waiting.finish();
    CHECK(waiting.size() == 12);
    CHECK(waiting.peak() == 2);
    CHECK(waiting.countAt(1 * kMs) == 1);
    CHECK(waiting.countAt(2 * kMs) == 0);  // ended at 2 ms
    CHECK(waiting.columnMaxima(0, 100.0 * kMs, 5) == std::vector<uint32_t>{1, 2, 2, 1, 0});
    // A column that starts inside a wait counts it.
    CHECK(waiting.columnMaxima(250 * kMs, 10.0 * kMs, 2) == std::vector<uint32_t>{1, 1});
}
