// The IPv4 tuples' table: a tuple keeps its number while the table grows, tuples that differ in
// any field are told apart, the table stays within twice the bytes of its slots in use, and it
// grows by a segment at a time, never by half of itself at once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "tcp/v4_tuple_numbers.hpp"

using namespace tcpscope;

TEST_CASE("v4 tuple numbers: a tuple keeps its number while the table grows", "[tcp]") {
    V4TupleNumbers numbers;
    std::mt19937 generator(7);
    const auto random = [&generator] { return static_cast<uint32_t>(generator()); };
    std::vector<V4Tuple> tuples;
    constexpr uint32_t kTuples = 200'000;
    size_t largestGrowth = 0;  // bytes added by one numberOf, past the first 10,000 tuples
    for (uint32_t next = 0; next < kTuples; ++next) {
        const size_t heldBefore = numbers.bytesHeld();
        // Few addresses and clustered ports, as a capture's tuples are; a repeat gets its old number.
        const V4Tuple tuple{0x0a000000U | (random() % 16), 0x0a000100U | (random() % 4), random() % (1U << 20)};
        const uint32_t number = numbers.numberOf(tuple, static_cast<uint32_t>(tuples.size()));
        if (number == tuples.size()) {
            tuples.push_back(tuple);
        } else {
            REQUIRE(number < tuples.size());
            CHECK(tuples[number] == tuple);
        }
        if (tuples.size() > 10'000) {
            largestGrowth = std::max(largestGrowth, numbers.bytesHeld() - heldBefore);
        }
    }
    CHECK(numbers.size() == tuples.size());
    for (uint32_t number = 0; number < tuples.size(); ++number) {
        REQUIRE(numbers.numberOf(tuples[number], kTuples) == number);
    }
    CHECK(numbers.size() == tuples.size());
    CHECK(numbers.bytesHeld() <= 2 * 16 * tuples.size());
    // One segment of 64 grows at a time: a whole table would add half of itself.
    CHECK(largestGrowth > 0);
    CHECK(largestGrowth * 16 <= numbers.bytesHeld());
}

TEST_CASE("v4 tuple numbers: tuples that differ in one field are different tuples", "[tcp]") {
    V4TupleNumbers numbers;
    const V4Tuple base{1, 2, 3};
    CHECK(numbers.numberOf(base, 0) == 0);
    CHECK(numbers.numberOf(V4Tuple{9, 2, 3}, 1) == 1);
    CHECK(numbers.numberOf(V4Tuple{1, 9, 3}, 2) == 2);
    CHECK(numbers.numberOf(V4Tuple{1, 2, 9}, 3) == 3);
    CHECK(numbers.numberOf(V4Tuple{0, 0, 0}, 4) == 4);
    CHECK(numbers.numberOf(base, 5) == 0);
    CHECK(numbers.size() == 5);
}
