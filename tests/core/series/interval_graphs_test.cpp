// The throughput, window-scaling and I/O graphs and the stall marks of the proxy sample, checked
// against tshark 4.0 on the same file (tcp.len, tcp.window_size, tcp.analysis.bytes_in_flight,
// -Y 'tcp.port == 3306') and against the detectors' findings.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <numeric>
#include <string>

#include "analysis/capture_analysis.hpp"
#include "filter/display_filter.hpp"
#include "series/interval_totals.hpp"
#include "series/io_graph.hpp"
#include "series/stall_marks.hpp"
#include "series/throughput.hpp"
#include "series/window_scaling.hpp"

using namespace tcpscope;

namespace {

const CaptureAnalysis& proxyNagle() {
    static const CaptureAnalysis analysis =
        analyzeCaptures({(std::filesystem::path(TCPSCOPE_SOURCE_DIR) / "samples" / "proxy-nagle.pcap").string()}, {});
    return analysis;
}

// The stalls of `connection`: its findings' spans, sorted by start, in seconds since the capture start.
std::vector<StallSpan> stallsOf(const CaptureAnalysis& analysis, uint32_t connection) {
    std::vector<StallSpan> stalls;
    const int64_t originNs = analysis.engine->firstTsNs();
    for (const Finding& finding : analysis.findings) {
        for (const FindingSpan& span : finding.spans) {
            if (span.connection == connection) {
                stalls.push_back({secondsSince(originNs, span.startNs), secondsSince(originNs, span.endNs)});
            }
        }
    }
    std::sort(stalls.begin(), stalls.end(), [](auto& a, auto& b) { return a.fromX < b.fromX; });
    return stalls;
}

uint32_t stallsIn(const std::vector<StallMark>& marks) {
    return std::accumulate(marks.begin(), marks.end(), 0u,
                           [](uint32_t sum, const StallMark& mark) { return sum + mark.stalls; });
}

double totalOf(const std::vector<ChartPoint>& steps) {
    double sum = 0;
    for (size_t at = 0; at < steps.size(); at += 2) {
        sum += steps[at].y;
    }
    return sum;
}

}  // namespace

TEST_CASE("the 39 Nagle stalls of the proxy are 39 marks at the default zoom, counted when folded") {
    const CaptureAnalysis& analysis = proxyNagle();
    // Flow 1: the proxy's own connection to the server, 41402 -> 3306, 39 small writes held.
    const std::vector<StallSpan> stalls = stallsOf(analysis, 1);
    REQUIRE(stalls.size() == 39);
    const Connection& flow = analysis.engine->connections()[1];
    const double fromX = secondsSince(analysis.engine->firstTsNs(), flow.firstTsNs);
    const double toX = secondsSince(analysis.engine->firstTsNs(), flow.lastTsNs);
    // The Charts tab at 1366 px: about 1250 columns over 3.5 s, each stall (~44 ms) its own mark.
    const std::vector<StallMark> marks = stallMarks(stalls, fromX, toX, 1250);
    REQUIRE(marks.size() == 39);
    for (size_t at = 0; at < marks.size(); ++at) {
        CHECK(marks[at].stalls == 1);
        CHECK(marks[at].fromX == stalls[at].fromX);
        CHECK(marks[at].toX == stalls[at].toX);  // wider than 3 px already: drawn as it is
        if (at > 0) {
            CHECK(marks[at].fromX > marks[at - 1].toX);  // a gap between each: never one band
        }
    }
    // A thumbnail 40 px wide: stalls closer than a pixel fold into one mark that says how many.
    const std::vector<StallMark> folded = stallMarks(stalls, fromX, toX, 40);
    CHECK(folded.size() < 39);
    CHECK(stallsIn(folded) == 39);
    CHECK(std::any_of(folded.begin(), folded.end(), [](const StallMark& mark) { return mark.stalls > 1; }));
    // Zoomed on one stall: only it (and whatever reaches into the range) is drawn, at its real width.
    const std::vector<StallMark> zoomed = stallMarks(stalls, stalls[5].fromX - 0.01, stalls[5].toX + 0.01, 1250);
    REQUIRE(zoomed.size() == 1);
    CHECK(zoomed[0].fromX == stalls[5].fromX);
    CHECK(zoomed[0].toX == stalls[5].toX);
}

TEST_CASE("stall marks: an instant gets a minimum width, never a band past the stalls it covers") {
    const std::vector<StallSpan> stalls{{1.0, 1.0}, {1.0005, 1.0006}, {2.0, 2.5}, {9.0, 9.0}};
    // 10 s over 1000 px: 10 ms a pixel; 3 px is 30 ms.
    const std::vector<StallMark> marks = stallMarks(stalls, 0, 10, 1000);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0].stalls == 2);  // 0.5 ms apart: under a pixel
    CHECK(marks[0].fromX == 1.0);
    CHECK(marks[0].toX == Approx(1.03));
    CHECK(marks[1].stalls == 1);
    CHECK(marks[1].toX == 2.5);
    CHECK(marks[2].toX == Approx(9.03));
    CHECK(stallMarks(stalls, 3, 8, 1000).empty());  // nothing stalled there
    CHECK(stallMarks(stalls, 0, 10, 0).empty());
}

TEST_CASE("throughput of the proxy's answers per interval") {
    const CaptureAnalysis& analysis = proxyNagle();
    const Connection& flow = analysis.engine->connections()[0];
    const ThroughputSeries series = throughputOf(analysis.engine->packets(), flow, analysis.engine->firstTsNs());
    // tshark -Y 'tcp.srcport==3307 && tcp.len>0': 80 segments, 40 of 128 and 40 of 35 bytes.
    const auto& answers = series.segments[sideIndex(Side::Server)];
    REQUIRE(answers.size() == 80);
    CHECK(series.payloadBytes[sideIndex(Side::Server)] == 6520);
    CHECK(series.payloadBytes[sideIndex(Side::Client)] == 6520);
    // The totals per interval add up to every byte, whichever interval the zoom picks.
    for (const double interval : {0.001, 0.01, 0.1, 1.0, 10.0}) {
        CHECK(totalOf(intervalTotals(answers, IntervalMeasure::Bytes, 0, 4, interval)) == 6520);
        CHECK(totalOf(intervalTotals(answers, IntervalMeasure::Packets, 0, 4, interval)) == 80);
    }
    // 100 ms intervals: about 11 answers of 163 bytes a second, never more than 3 requests in one.
    const std::vector<ChartPoint> perInterval = intervalTotals(answers, IntervalMeasure::Bytes, 0, 3.6, 0.1);
    CHECK(perInterval.size() == 2 * 36);
    const double busiest =
        std::max_element(perInterval.begin(), perInterval.end(), [](auto& a, auto& b) { return a.y < b.y; })->y;
    CHECK(busiest <= 3 * 163);
    CHECK(busiest >= 163);
    // The moving average over 10 intervals of 100 ms: a second's bytes / 10, about 11 * 163 / 10.
    const std::vector<ChartPoint> average = movingAverage(answers, IntervalMeasure::Bytes, 0, 3.6, 0.1, 10);
    REQUIRE(!average.empty());
    const auto middle = std::find_if(average.begin(), average.end(), [](auto& point) { return point.x >= 2.0; });
    REQUIRE(middle != average.end());
    CHECK(middle->y == Approx(11 * 163 / 10.0).epsilon(0.25));
}

TEST_CASE("the interval follows the zoom as Wireshark's do") {
    CHECK(ioIntervalSeconds(0, 3.6, 1250) == 0.1);     // 2.9 ms a pixel
    CHECK(ioIntervalSeconds(0, 0.2, 1250) == 0.001);   // zoomed in
    CHECK(ioIntervalSeconds(0, 300, 1250) == 1.0);     // 5 minutes
    CHECK(ioIntervalSeconds(0, 86400, 1250) == 10.0);  // a day: at most 10 s
    CHECK(intervalName(0.1) == "100 ms");
    CHECK(intervalName(10) == "10 s");
    CHECK(intervalName(0.001) == "1 ms");
}

TEST_CASE("window scaling of the proxy's answers: the client's 64 KiB window, 128 bytes in flight") {
    const CaptureAnalysis& analysis = proxyNagle();
    const Connection& flow = analysis.engine->connections()[0];
    const WindowScalingSeries series =
        windowScalingOf(analysis.engine->packets(), flow, analysis.engine->firstTsNs(), Side::Server);
    // tshark -Y 'tcp.dstport==3307 && tcp.flags.ack==1' -e tcp.window_size: 65536 (1 << 6 << 10).
    CHECK(series.windowScale > 0);
    REQUIRE(!series.receiveWindow.empty());
    CHECK(series.peakWindow == 65536);
    // tcp.analysis.bytes_in_flight of the proxy's segments: 40 of 128 and 40 of 35, never more:
    // Nagle holds the 35-byte write until the 128 bytes are acknowledged.
    CHECK(series.peakInFlight == 128);
    const auto flights = std::count_if(series.bytesInFlight.begin(), series.bytesInFlight.end(),
                                       [](const ChartPoint& point) { return point.y == 35; });
    CHECK(flights >= 40);
    CHECK(std::is_sorted(series.bytesInFlight.begin(), series.bytesInFlight.end(),
                         [](auto& a, auto& b) { return a.x < b.x; }));
    CHECK(series.bytesInFlight.back().y == 0);  // all acknowledged at the end
    // The window never changed: its line still runs to the connection's last packet (frame 492).
    CHECK(series.receiveWindow.back().x == series.bytesInFlight.back().x);
    CHECK(series.receiveWindow.back().x == Approx(secondsSince(analysis.engine->firstTsNs(), flow.lastTsNs)));
}

TEST_CASE("I/O graph of the whole capture with the packet list's display filter") {
    const CaptureAnalysis& analysis = proxyNagle();
    const PacketIndex& packets = analysis.engine->packets();
    const IoGraphLine all = ioGraphLineOf(packets, analysis.engine->firstTsNs());
    // tshark -r proxy-nagle.pcap: 492 frames, all TCP; -Y 'tcp.port == 3306': 246.
    CHECK(all.packets.size() == 492);
    const filter::DisplayFilter filter = filter::DisplayFilter::compile("tcp.port == 3306");
    const IoGraphLine server = ioGraphLineOf(packets, analysis.engine->firstTsNs(), [&](size_t position) {
        return filter.matchesAt(*analysis.engine, position);
    });
    CHECK(server.packets.size() == 246);
    CHECK(server.payloadBytes == 6520 * 2);
    CHECK(totalOf(intervalTotals(server.packets, IntervalMeasure::Packets, 0, 4, 0.01)) == 246);
    CHECK(totalOf(intervalTotals(all.packets, IntervalMeasure::Bytes, 0, 4, 1)) == double(all.payloadBytes));
}

TEST_CASE("the moving average starts with the data, not with the intervals before it") {
    // One 100-byte packet every 100 ms from 1.0 s on: the average is 100 from the first interval.
    std::vector<ChartPoint> events;
    for (int at = 0; at < 20; ++at) {
        events.push_back({1.0 + 0.1 * at + 0.05, 100});
    }
    const std::vector<ChartPoint> average = movingAverage(events, IntervalMeasure::Bytes, 0, 3, 0.1, 10);
    const auto firstData = std::find_if(average.begin(), average.end(), [](auto& point) { return point.y > 0; });
    REQUIRE(firstData != average.end());
    CHECK(firstData->x == Approx(1.1));
    CHECK(firstData->y == Approx(100));
    CHECK(average[average.size() / 2].y == Approx(100));
}
