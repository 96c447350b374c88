// The benchmark is only comparable from run to run if its captures are: a seed must give the
// same bytes every time, and another seed other bytes.
#include <catch2/catch.hpp>

#include "bench/generator_error.hpp"
#include "support/generated_capture.hpp"

using tcpscope::bench::Workload;
using tcpscope::test::GeneratedCapture;
using tcpscope::test::smallWorkload;

TEST_CASE("generator: the same seed writes the same bytes, another seed other bytes", "[bench]") {
    const auto [workload, packets] = GENERATE(table<Workload, uint64_t>({
        {Workload::W1, 30'000},
        {Workload::W2, 6'000},
        {Workload::W3, 30'000},
    }));
    CAPTURE(tcpscope::bench::workloadName(workload));
    const GeneratedCapture first(smallWorkload(workload, packets, 7), "first");
    const GeneratedCapture again(smallWorkload(workload, packets, 7), "again");
    const GeneratedCapture other(smallWorkload(workload, packets, 8), "other");

    CHECK(first.stats().bytes == again.stats().bytes);
    CHECK(first.hash() == again.hash());
    CHECK(first.stats().packets == again.stats().packets);
    CHECK(first.stats().connections == again.stats().connections);
    CHECK(first.hash() != other.hash());
}

TEST_CASE("generator: --packets sets the size", "[bench]") {
    // W1 stops exactly at the budget; W2 and W3 size their transfers, scan and storms from it.
    CHECK(GeneratedCapture(smallWorkload(Workload::W1, 12'345)).stats().packets == 12'345);
    for (const Workload workload : {Workload::W2, Workload::W3}) {
        CAPTURE(tcpscope::bench::workloadName(workload));
        const uint64_t packets = GeneratedCapture(smallWorkload(workload, 50'000)).stats().packets;
        CHECK(packets <= 50'000);
        CHECK(packets >= 49'000);
    }
}

TEST_CASE("generator: an unwritable output is an error naming the file", "[bench]") {
    auto options = smallWorkload(Workload::W1, 100);
    const std::string path = "/nonexistent-dir/out.pcap";
    CHECK_THROWS_WITH(tcpscope::bench::generateCapture(path, options), Catch::Contains(path));
}

TEST_CASE("generator: workload names", "[bench]") {
    CHECK(tcpscope::bench::parseWorkload("w1") == Workload::W1);
    CHECK(tcpscope::bench::parseWorkload("W3") == Workload::W3);
    CHECK_FALSE(tcpscope::bench::parseWorkload("w4").has_value());
    CHECK(tcpscope::bench::workloadName(Workload::W2) == "w2");
}
