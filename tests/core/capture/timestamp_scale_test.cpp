#include "capture/timestamp_scale.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <sstream>
#include <string>

using tcpscope::EpochTime;
using tcpscope::TimestampScale;

namespace Catch {
template <>
struct StringMaker<EpochTime> {
    static std::string convert(const EpochTime& time) {
        std::ostringstream text;
        text << time.seconds << " s + " << time.nanoseconds << " ns";
        return text.str();
    }
};
}  // namespace Catch

namespace {

// Nanoseconds after the epoch, for the moments int64 holds.
int64_t epochNs(const TimestampScale& scale, uint64_t units) {
    const EpochTime time = scale.toEpochTime(units);
    return time.seconds * 1'000'000'000 + time.nanoseconds;
}

constexpr uint64_t kMaxUnits = std::numeric_limits<uint64_t>::max();

}  // namespace

TEST_CASE("timestamp scale: powers of ten", "[timestamps]") {
    CHECK(epochNs(TimestampScale(), 1'500'000) == 1'500'000'000);  // default microseconds
    CHECK(epochNs(TimestampScale::fromTsresol(0, 0), 3) == 3'000'000'000);
    CHECK(epochNs(TimestampScale::fromTsresol(3, 0), 1234) == 1'234'000'000);
    CHECK(epochNs(TimestampScale::fromTsresol(9, 0), 1234) == 1234);
    CHECK(epochNs(TimestampScale::fromTsresol(12, 0), 1'234'567) == 1234);
    CHECK(epochNs(TimestampScale::fromTsresol(28, 0), kMaxUnits) == 1);
    CHECK(epochNs(TimestampScale::fromTsresol(29, 0), kMaxUnits) == 0);
    CHECK(epochNs(TimestampScale::fromTsresol(127, 0), kMaxUnits) == 0);
}

TEST_CASE("timestamp scale: powers of two", "[timestamps]") {
    CHECK(epochNs(TimestampScale::fromTsresol(0x80, 0), 2) == 2'000'000'000);
    CHECK(epochNs(TimestampScale::fromTsresol(0x80 | 10, 0), 1024 + 512) == 1'500'000'000);
    CHECK(epochNs(TimestampScale::fromTsresol(0x80 | 30, 0), uint64_t{1} << 30) == 1'000'000'000);
    // 2^-64 s: a full 64-bit counter spans just under one second.
    CHECK(epochNs(TimestampScale::fromTsresol(0x80 | 64, 0), kMaxUnits) == 999'999'999);
    CHECK(epochNs(TimestampScale::fromTsresol(0x80 | 127, 0), kMaxUnits) == 0);
}

TEST_CASE("timestamp scale: offsets, and times past 2262 kept exact", "[timestamps]") {
    CHECK(epochNs(TimestampScale::fromTsresol(6, 100), 1) == 100'000'001'000);
    CHECK(epochNs(TimestampScale::fromTsresol(6, -100), 0) == -100'000'000'000);
    CHECK(TimestampScale::fromTsresol(6, -100).toEpochTime(1) == EpochTime{-100, 1000});
    // Seconds as units: a full 64-bit count is 584 billion years, held at int64 seconds only.
    CHECK(TimestampScale::fromTsresol(0, 0).toEpochTime(kMaxUnits) ==
          EpochTime{std::numeric_limits<int64_t>::max(), 999'999'999});
    CHECK(TimestampScale::fromTsresol(0, 0).toEpochTime(uint64_t{1} << 40) == EpochTime{int64_t{1} << 40, 0});
    // Microseconds up to the full count: 18446744073709.551615 s (year 586524), to the microsecond.
    CHECK(TimestampScale().toEpochTime(kMaxUnits) == EpochTime{18'446'744'073'709, 551'615'000});
    // Nanoseconds: the whole count, past 2262 (year 2554).
    CHECK(TimestampScale::fromTsresol(9, 0).toEpochTime(kMaxUnits) == EpochTime{18'446'744'073, 709'551'615});
    // 2^-32 s units (NTP-like): the count's high word is seconds, exactly.
    CHECK(TimestampScale::fromTsresol(0x80 | 32, 0).toEpochTime((uint64_t{4'000'000'000} << 32) | 0x80000000u) ==
          EpochTime{4'000'000'000, 500'000'000});
    // if_tsoffset at the int64 limits.
    CHECK(TimestampScale::fromTsresol(9, std::numeric_limits<int64_t>::max()).toEpochTime(5) ==
          EpochTime{std::numeric_limits<int64_t>::max(), 5});
    CHECK(TimestampScale::fromTsresol(9, std::numeric_limits<int64_t>::min()).toEpochTime(5) ==
          EpochTime{std::numeric_limits<int64_t>::min(), 5});
}
