// SmallVector holds a side's transmissions in flight for the retransmission detector: its first
// items in the object, the rest on the heap. Whatever the mix of pushes, front drops and clears
// (a pooled record is cleared and reused by another side), it must hold what a std::vector would.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "detect/support/small_vector.hpp"

using tcpscope::SmallVector;

TEST_CASE("small vector holds what a std::vector holds, inline and spilled to the heap", "[detect][small_vector]") {
    std::mt19937_64 random(11);
    SmallVector<uint64_t, 4> items;  // one record reused across rounds, as a pool does
    for (int round = 0; round < 200; ++round) {
        std::vector<uint64_t> expected;
        uint64_t next = round * 1'000'000ULL;
        const int steps = 1 + static_cast<int>(random() % 300);
        const uint64_t pushShare = 30 + random() % 50;  // in percent: lists that stay short, or grow
        for (int step = 0; step < steps; ++step) {
            if (random() % 100 < pushShare || expected.empty()) {
                items.push_back(next);
                expected.push_back(next++);
            } else {
                const size_t dropped = random() % (expected.size() + 1);
                items.eraseFront(dropped);
                expected.erase(expected.begin(), expected.begin() + static_cast<std::ptrdiff_t>(dropped));
            }
            REQUIRE(items.size() == expected.size());
            REQUIRE(items.empty() == expected.empty());
            REQUIRE(std::vector<uint64_t>(items.begin(), items.end()) == expected);
            if (!expected.empty()) {
                REQUIRE(items.front() == expected.front());
                REQUIRE(items.back() == expected.back());
                items.back() += 1;  // written through the reference, as the detector merges its newest
                expected.back() += 1;
            }
        }
        items.clear();
        REQUIRE(items.empty());
        REQUIRE(items.begin() == items.end());
    }
}
