// The chart series of the recorded samples, checked against tshark 4.0 on the same files
// (frame.time_relative, tcp.seq, tcp.nxtseq, tcp.ack, tcp.window_size, tcp.analysis.ack_rtt,
// tcp.analysis.acks_frame, tcp.analysis.retransmission) and against the detectors' findings.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <numeric>
#include <string>

#include "analysis/capture_analysis.hpp"
#include "series/connection_rate.hpp"
#include "series/host_population_series.hpp"
#include "series/rtt_samples.hpp"
#include "series/time_sequence.hpp"

using namespace tcpscope;

namespace {

CaptureAnalysis analyzeSample(const std::string& name) {
    const std::filesystem::path path = std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / name;
    REQUIRE(std::filesystem::exists(path));
    return analyzeCaptures({path.string()}, {});
}

// Flow 0 of proxy-nagle.pcap: the client 127.0.0.1:58562 and the proxy 127.0.0.1:3307, which
// answers each 163-byte request in a 128-byte and a 35-byte write (the second held by Nagle).
const CaptureAnalysis& proxyNagle() {
    static const CaptureAnalysis analysis = analyzeSample("proxy-nagle.pcap");
    return analysis;
}

}  // namespace

TEST_CASE("time-sequence graph of the proxy's answers") {
    const CaptureAnalysis& analysis = proxyNagle();
    REQUIRE(analysis.engine->connections().at(0).server.port == 3307);
    const TimeSequenceSeries series = timeSequenceOf(*analysis.engine, 0, Side::Server);
    // tshark -Y 'tcp.srcport==3307 && tcp.len>0': 80 segments, none retransmitted.
    CHECK(series.dataSegments == 80);
    CHECK(series.retransmittedSegments == 0);
    CHECK(series.retransmissions.empty());
    REQUIRE(series.segments.size() == 160);
    // Frame 15, 0.025962 s: seq 1, nxtseq 129. Frame 485, 3.548566 s: seq 6486, nxtseq 6521.
    CHECK(series.segments[0].x == Approx(0.025962).margin(1e-9));
    CHECK(series.segments[0].y == 1);
    CHECK(series.segments[1].y == 129);
    CHECK(series.segments[158].x == Approx(3.548566).margin(1e-9));
    CHECK(series.segments[158].y == 6486);
    CHECK(series.segments[159].y == 6521);
    // The client's ACKs: the handshake ACK (frame 3) acknowledges 1, the last one (frame 489) 6522
    // (the FIN counts one); window_size 65536 (64 << 10) above each.
    REQUIRE(!series.acks.empty());
    CHECK(series.acks.front() == ChartPoint{series.acks.front().x, 1});
    CHECK(series.acks.front().x == Approx(0.000031).margin(1e-9));
    CHECK(series.acks.back().y == 6522);
    CHECK(series.receiveWindow.front().y == 1 + 65536);
    CHECK(series.receiveWindow.back().y == 6522 + 65536);
    // Staircases: x never goes back, and each step is a pair of points on the same x.
    CHECK(std::is_sorted(series.acks.begin(), series.acks.end(), [](auto& a, auto& b) { return a.x < b.x; }));
    CHECK(std::is_sorted(series.segments.begin(), series.segments.end(), [](auto& a, auto& b) { return a.x < b.x; }));
}

TEST_CASE("RTT samples match tshark's ack_rtt") {
    const CaptureAnalysis& analysis = proxyNagle();
    // tshark -Y 'tcp.srcport==58562 && tcp.analysis.ack_rtt': 82 samples of the proxy's segments
    // (SYN-ACK, data, FIN), summing to 1718.622 ms; the longest, 47.584 ms, is frame 27 acking 26.
    const std::vector<RttSample> proxy = rttSamplesOf(*analysis.engine, 0, Side::Server);
    REQUIRE(proxy.size() == 82);
    const double sumMs = std::accumulate(proxy.begin(), proxy.end(), 0.0,
                                         [](double sum, const RttSample& sample) { return sum + sample.rttMs; });
    CHECK(sumMs == Approx(1718.622).margin(1e-3));
    const auto longest =
        std::max_element(proxy.begin(), proxy.end(), [](auto& a, auto& b) { return a.rttMs < b.rttMs; });
    CHECK(longest->rttMs == Approx(47.584).margin(1e-6));
    CHECK(longest->ackFrame == 27);
    CHECK(longest->segmentFrame == 26);
    // The other direction: 42 samples on the proxy's packets. Frame 22 acks the client's
    // request in frame 19 after 46.519 ms: the proxy's delayed ACK.
    const std::vector<RttSample> client = rttSamplesOf(*analysis.engine, 0, Side::Client);
    CHECK(client.size() == 42);
    CHECK(std::any_of(client.begin(), client.end(), [](const RttSample& s) {
        return s.ackFrame == 22 && s.segmentFrame == 19 && std::abs(s.rttMs - 46.519) < 1e-6;
    }));
    const std::vector<ChartPoint> points = rttPoints(proxy, analysis.engine->firstTsNs());
    REQUIRE(points.size() == 82);
    CHECK(points[0].x == Approx(0.000031).margin(1e-9));  // frame 3 acks the SYN-ACK (frame 2) ...
    CHECK(points[0].y == Approx(0.015).margin(1e-9));     // ... 0.015 ms later
}

TEST_CASE("RTT follows Karn's rule on retransmitted SYNs") {
    // backlog-overflow.pcap: every SYN but the first connection's was sent again (tshark: 90
    // retransmitted SYNs); a SYN-ACK cannot say which copy it answers, so those handshakes give
    // no sample. Connection 0 got its SYN-ACK at once (frame 2 after frame 1) and is measured.
    const CaptureAnalysis analysis = analyzeSample("backlog-overflow.pcap");
    const auto& connections = analysis.engine->connections();
    size_t measuredHandshakes = 0;
    for (const Connection& connection : connections) {
        const std::vector<RttSample> samples = rttSamplesOf(*analysis.engine, connection.id, Side::Client);
        const bool handshakeMeasured = std::any_of(samples.begin(), samples.end(), [&](const RttSample& sample) {
            return sample.segmentFrame == connection.firstFrame;
        });
        CHECK((handshakeMeasured == (connection.synCount == 1)));
        measuredHandshakes += handshakeMeasured ? 1 : 0;
    }
    CHECK(measuredHandshakes == static_cast<size_t>(std::count_if(connections.begin(), connections.end(),
                                                                  [](auto& c) { return c.synCount == 1; })));
    CHECK(measuredHandshakes >= 1);
}

TEST_CASE("connection rate of the backlog overflow") {
    const CaptureAnalysis analysis = analyzeSample("backlog-overflow.pcap");
    const ConnectionAttempts attempts = connectionAttemptsOf(*analysis.engine);
    // tshark -Y 'tcp.flags.syn==1 && tcp.flags.ack==0': 20 first SYNs within 0.7 ms, then 90
    // retransmitted SYNs at 1, 2, 3, 4, 5, 7, 11, 19 and 35 s (18, 16, 14, ... 2 of them).
    CHECK(attempts.newConnections.size() == 20);
    CHECK(attempts.synRetransmissions.size() == 90);
    CHECK(attempts.durationSeconds == Approx(35.898289).margin(1e-6));
    const std::vector<ChartPoint> newPerSecond = ratePoints(attempts.newConnections, 0, attempts.durationSeconds, 1.0);
    REQUIRE(newPerSecond.size() == 2 * 36);
    CHECK(newPerSecond[0] == ChartPoint{0, 20});
    CHECK(newPerSecond[1] == ChartPoint{1, 20});
    CHECK(newPerSecond[2].y == 0);
    const std::vector<ChartPoint> retriesPerSecond =
        ratePoints(attempts.synRetransmissions, 0, attempts.durationSeconds, 1.0);
    const auto rateAt = [&](int second) { return retriesPerSecond[2 * static_cast<size_t>(second)].y; };
    CHECK(rateAt(0) == 0);
    CHECK(rateAt(1) == 18);
    CHECK(rateAt(2) == 16);
    CHECK(rateAt(7) == 8);
    CHECK(rateAt(11) == 6);
    CHECK(rateAt(35) == 2);
    CHECK(rateAt(6) == 0);
    // Finer bins give rates per second too: 20 SYNs in the first 10 ms are 2000/s.
    const std::vector<ChartPoint> fine = ratePoints(attempts.newConnections, 0, 1, 0.01);
    CHECK(fine.size() == 200);
    CHECK(fine[0].y == 2000);
}

TEST_CASE("rate bins widen with the view") {
    CHECK(rateBinSeconds(0, 36, 800) == 1.0);  // 0.045 s a pixel: 1 s bins are 22 px
    CHECK(rateBinSeconds(0, 1, 800) == 0.01);
    CHECK(rateBinSeconds(0, 3600, 800) == 60.0);
    CHECK(rateBinSeconds(0, 1e9, 800) == 3600.0);
    CHECK(ratePoints(std::vector<double>{1, 2}, 0, 1e12, 1e-3).empty());  // would be too many bins
}

TEST_CASE("TIME_WAIT and ports in use of the churning client") {
    // churn-exhaustion.pcap: 127.0.0.1 opens 150 connections to :9000 from ports 40000-40099 and
    // closes each first: 100 in TIME_WAIT at once, the 101st waits 60 s for a port (findings
    // time_wait_churn peak_population 100, population_now 50; port_exhaustion peak 100).
    const CaptureAnalysis analysis = analyzeSample("churn-exhaustion.pcap");
    const IpAddress host = analysis.engine->connections().at(0).client.address;
    const HostPopulationChart chart = hostPopulationChart(analysis, host);
    CHECK(chart.capacityPorts == 60999 - 32768 + 1);
    CHECK(chart.observedRangePorts == 100);
    CHECK(chart.peak == 100);
    REQUIRE(chart.lines.size() == 2);
    const PopulationLine& timeWait = chart.lines[0];
    CHECK(timeWait.kind == HostPopulation::Kind::TimeWait);
    CHECK(timeWait.label == "TIME_WAIT (closed first as client)");
    CHECK(timeWait.peak == 100);
    CHECK(timeWait.points.back().y == 50);
    CHECK(timeWait.points.back().x == Approx(60.935).margin(0.01));  // held until the capture's end
    const PopulationLine& ports = chart.lines[1];
    CHECK(ports.kind == HostPopulation::Kind::PortsInUse);
    CHECK(ports.label == "ports in use to 127.0.0.1:9000");
    CHECK(ports.peak == 100);
    for (const PopulationLine& line : chart.lines) {
        CHECK(std::is_sorted(line.points.begin(), line.points.end(), [](auto& a, auto& b) { return a.x < b.x; }));
        CHECK(std::all_of(line.points.begin(), line.points.end(), [](auto& p) { return p.y >= 0 && p.y <= 100; }));
        CHECK(line.points.size() <= 2 * 512 + 4);  // the detectors keep at most 512 buckets
    }
    // A host that closed nothing first and held no ports has nothing to draw.
    const HostPopulationChart other = hostPopulationChart(analysis, IpAddress{});
    CHECK(other.lines.empty());
}
