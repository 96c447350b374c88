// How long the chart series take on a generated transfer of a million packets in one connection
// (a benchmark, not a test: hidden, run with `series_tests "[series-benchmark]"`; it prints the
// figures and asserts only what the series contain).
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>

#include "core/series/long_transfer.hpp"
#include "series/connection_rate.hpp"
#include "series/min_max_downsampler.hpp"
#include "series/rtt_samples.hpp"
#include "series/time_sequence.hpp"

using namespace tcpscope;

namespace {

template <typename Work>
auto timed(const char* what, Work&& work) {
    const auto start = std::chrono::steady_clock::now();
    auto result = work();
    const std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    std::printf("%-44s %9.1f ms\n", what, took.count());
    return result;
}

}  // namespace

TEST_CASE("chart series of a million-packet connection", "[.benchmark][series-benchmark]") {
    const CaptureAnalysis analysis = test::analyzeLongTransfer(1'000'000, "tcpscope-series-benchmark.pcap");
    REQUIRE(analysis.engine->connections().size() == 1);
    const Connection& connection = analysis.engine->connections()[0];
    const Side sender = connection.from(Side::Server).payloadBytes > connection.from(Side::Client).payloadBytes
                            ? Side::Server
                            : Side::Client;
    std::printf("packets %zu\n", analysis.engine->packets().size());

    const TimeSequenceSeries series =
        timed("time-sequence (segments, ACK, window)", [&] { return timeSequenceOf(*analysis.engine, 0, sender); });
    const std::vector<RttSample> samples =
        timed("RTT samples", [&] { return rttSamplesOf(*analysis.engine, 0, sender); });
    const double endX = series.segments.back().x;
    const std::vector<ChartPoint> full = timed("min/max of the segments, whole range, 1000 px",
                                               [&] { return downsampleMinMax(series.segments, 0, endX, 1000); });
    const std::vector<ChartPoint> zoomed = timed("min/max of the segments, 0.1% range, 1000 px", [&] {
        return downsampleMinMax(series.segments, endX / 2, endX / 2 + endX / 1000, 1000);
    });
    const ConnectionAttempts attempts =
        timed("connection attempts (whole index)", [&] { return connectionAttemptsOf(*analysis.engine); });
    std::printf("segments %zu points -> %zu (whole) / %zu (zoomed); acks %zu; RTT samples %zu\n",
                series.segments.size(), full.size(), zoomed.size(), series.acks.size(), samples.size());
    CHECK(full.size() <= 2002);
    CHECK(!samples.empty());
    CHECK(attempts.newConnections.size() == 1);
}
