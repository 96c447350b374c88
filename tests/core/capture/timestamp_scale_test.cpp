#include <catch2/catch.hpp>

#include <limits>

#include "capture/timestamp_scale.hpp"

using tcpscope::TimestampScale;

TEST_CASE("timestamp scale: powers of ten", "[timestamps]") {
    CHECK(TimestampScale().toNs(1'500'000) == 1'500'000'000);  // default microseconds
    CHECK(TimestampScale::fromTsresol(0, 0).toNs(3) == 3'000'000'000);
    CHECK(TimestampScale::fromTsresol(3, 0).toNs(1234) == 1'234'000'000);
    CHECK(TimestampScale::fromTsresol(9, 0).toNs(1234) == 1234);
    CHECK(TimestampScale::fromTsresol(12, 0).toNs(1'234'567) == 1234);
    CHECK(TimestampScale::fromTsresol(28, 0).toNs(std::numeric_limits<uint64_t>::max()) == 1);
    CHECK(TimestampScale::fromTsresol(29, 0).toNs(std::numeric_limits<uint64_t>::max()) == 0);
    CHECK(TimestampScale::fromTsresol(127, 0).toNs(std::numeric_limits<uint64_t>::max()) == 0);
}

TEST_CASE("timestamp scale: powers of two", "[timestamps]") {
    CHECK(TimestampScale::fromTsresol(0x80, 0).toNs(2) == 2'000'000'000);
    CHECK(TimestampScale::fromTsresol(0x80 | 10, 0).toNs(1024 + 512) == 1'500'000'000);
    CHECK(TimestampScale::fromTsresol(0x80 | 30, 0).toNs(uint64_t{1} << 30) == 1'000'000'000);
    // 2^-64 s: a full 64-bit counter spans just under one second.
    CHECK(TimestampScale::fromTsresol(0x80 | 64, 0).toNs(std::numeric_limits<uint64_t>::max()) == 999'999'999);
    CHECK(TimestampScale::fromTsresol(0x80 | 127, 0).toNs(std::numeric_limits<uint64_t>::max()) == 0);
}

TEST_CASE("timestamp scale: offsets and clamping", "[timestamps]") {
    CHECK(TimestampScale::fromTsresol(6, 100).toNs(1) == 100'000'001'000);
    CHECK(TimestampScale::fromTsresol(6, -100).toNs(0) == -100'000'000'000);
    constexpr auto kMax = std::numeric_limits<int64_t>::max();
    constexpr auto kMin = std::numeric_limits<int64_t>::min();
    CHECK(TimestampScale::fromTsresol(0, 0).toNs(std::numeric_limits<uint64_t>::max()) == kMax);
    CHECK(TimestampScale::fromTsresol(9, std::numeric_limits<int64_t>::max()).toNs(5) == kMax);
    CHECK(TimestampScale::fromTsresol(9, std::numeric_limits<int64_t>::min()).toNs(5) == kMin);
}
