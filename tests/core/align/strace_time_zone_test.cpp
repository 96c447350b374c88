// The time zone a user gives for a time-of-day strace log (--strace-tz, and the GUI's field).
#include "align/strace_time_zone.hpp"

#include <catch2/catch.hpp>

using tcpscope::parseTimeZoneOffset;

TEST_CASE("time zones as users type them become minutes east of UTC", "[align][tz]") {
    CHECK(parseTimeZoneOffset("UTC") == 0);
    CHECK(parseTimeZoneOffset("Z") == 0);
    CHECK(parseTimeZoneOffset("+02:00") == 120);
    CHECK(parseTimeZoneOffset("-05:30") == -330);
    CHECK(parseTimeZoneOffset("+5:45") == 345);
    CHECK(parseTimeZoneOffset("+2") == 120);
    CHECK(parseTimeZoneOffset("+14:00") == 840);
    CHECK(parseTimeZoneOffset("-00:00") == 0);
}

TEST_CASE("anything else is not a time zone", "[align][tz]") {
    for (const char* bad : {"", "+", "2", "02:00", "+15:00", "+02:60", "+02:0", "+02:000", "+02-00", "+02:00x", "utc",
                            "+ab", "CEST", "+123"}) {
        INFO(bad);
        CHECK_FALSE(parseTimeZoneOffset(bad).has_value());
    }
}
