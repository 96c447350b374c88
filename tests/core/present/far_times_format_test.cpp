// The time forms of the reports, for any time a capture can hold: on the epoch's origin exactly as
// before (the golden reports pin that), far from it with the origin added back.
#include <catch2/catch.hpp>

#include "present/value_format.hpp"

using namespace tcpscope;

TEST_CASE("UTC times and epoch seconds of captures near the epoch and far from it", "[present][timestamps]") {
    const TimeOrigin epoch;
    CHECK(utcTimestamp(epoch, 1'795'231'740'963'586'257) == "2026-11-21 03:29:00.963586");
    CHECK(utcTimestamp(epoch, -1) == "1969-12-31 23:59:59.999999");
    CHECK(epochSeconds(epoch, 1'795'231'740'963'586'257) == 1795231740.963586);
    CHECK(epochSeconds(epoch, -1'500) == -0.000002);

    const TimeOrigin year3000{32'503'680'000 - 86'400};
    CHECK(utcTimestamp(year3000, 86'400'000'000'000 + 1'500'000) == "3000-01-01 00:00:00.001500");
    CHECK(epochSeconds(year3000, 86'400'000'000'000) == 32503680000.0);
    const TimeOrigin year1000{-30'610'224'000};
    CHECK(utcTimestamp(year1000, 0) == "1000-01-01 00:00:00.000000");
    const TimeOrigin farFuture{3'093'527'980'800};  // 100000-01-01
    CHECK(utcTimestamp(farFuture, 61'000'000'000) == "100000-01-01 00:01:01.000000");
}
