// What a capture's times count from: the epoch for every capture that fits int64 nanoseconds with
// room to spare, the start of its era for one far from it; nothing that changes a duration.
#include "capture/time_origin.hpp"

#include <catch2/catch.hpp>
#include <limits>

using namespace tcpscope;

namespace {
constexpr int64_t kSecondNs = 1'000'000'000;
constexpr int64_t kYear3000 = 32'503'680'000;
constexpr int64_t kEra = int64_t{1} << 32;
}  // namespace

TEST_CASE("time origin: the epoch from 1824 to 2116, the era's start beyond", "[timestamps]") {
    CHECK(TimeOrigin::forFirstPacket(EpochTime{1'700'000'000, 5}).isEpoch());
    CHECK(TimeOrigin::forFirstPacket(EpochTime{0xFFFFFFFF, 0}).isEpoch());      // pcap's last second, 2106
    CHECK(TimeOrigin::forFirstPacket(EpochTime{-4'000'000'000, 0}).isEpoch());  // 1843
    const TimeOrigin far = TimeOrigin::forFirstPacket(EpochTime{kYear3000, 0});
    CHECK(far.epochSeconds == (kYear3000 / kEra) * kEra);
    CHECK(TimeOrigin::forFirstPacket(EpochTime{kYear3000 + 100, 0}) == far);            // files of one era share it
    const TimeOrigin past = TimeOrigin::forFirstPacket(EpochTime{-30'610'224'000, 0});  // the year 1000
    CHECK(past.epochSeconds <= -30'610'224'000);
    CHECK(past.epochSeconds > -30'610'224'000 - kEra);
}

TEST_CASE("time origin: times after it and back, exact to the nanosecond", "[timestamps]") {
    const TimeOrigin origin{7 * kEra};
    const EpochTime moment{kYear3000, 123'456'789};
    const auto ns = origin.relativeNs(moment);
    REQUIRE(ns);
    CHECK(*ns == (kYear3000 - 7 * kEra) * kSecondNs + 123'456'789);
    CHECK(origin.absolute(*ns) == moment);
    CHECK(origin.absolute(-1) == EpochTime{7 * kEra - 1, 999'999'999});
    CHECK_FALSE(TimeOrigin{}.relativeNs(moment));  // 1000 years after the epoch: past int64 nanoseconds
    CHECK(TimeOrigin{}.relativeNs(EpochTime{-5, 1}) == -5 * kSecondNs + 1);
    // Shifting from one origin to another, and the records' epoch nanoseconds.
    CHECK(TimeOrigin{}.shiftFromNs(TimeOrigin{100}) == 100 * kSecondNs);
    CHECK_FALSE(TimeOrigin{}.shiftFromNs(origin));
    CHECK(TimeOrigin{}.epochNs(42) == 42);
    CHECK(TimeOrigin{1000}.epochNs(42) == 1000 * kSecondNs + 42);
    CHECK(origin.epochNs(0) == std::numeric_limits<int64_t>::max());
    CHECK(shiftedNs(std::numeric_limits<int64_t>::max() - 1, 5) == std::numeric_limits<int64_t>::max());
    CHECK(shiftedNs(std::numeric_limits<int64_t>::min() + 1, -5) == std::numeric_limits<int64_t>::min());
    CHECK(shiftedNs(10, -3) == 7);
}
