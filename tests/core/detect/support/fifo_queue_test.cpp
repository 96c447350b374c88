// FifoQueue keeps the expiries of every TIME_WAIT of the last minute and the closes of each port
// pool: it must hand them back in the order they came, however pushes and pops interleave while
// its ring wraps and grows.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>

#include "detect/support/fifo_queue.hpp"

using tcpscope::FifoQueue;

TEST_CASE("fifo queue gives back its items in order while its ring wraps and grows", "[detect][fifo]") {
    std::mt19937_64 random(3);
    for (int round = 0; round < 50; ++round) {
        FifoQueue<uint64_t> queue;
        std::deque<uint64_t> expected;
        uint64_t next = 0;
        const int steps = 1 + static_cast<int>(random() % 5000);
        const uint64_t pushShare = 40 + random() % 40;  // in percent: queues that grow, shrink, or hover
        for (int step = 0; step < steps; ++step) {
            if (random() % 100 < pushShare || expected.empty()) {
                queue.push_back(next);
                expected.push_back(next++);
            } else {
                queue.pop_front();
                expected.pop_front();
            }
            REQUIRE(queue.size() == expected.size());
            REQUIRE(queue.empty() == expected.empty());
            if (!expected.empty()) {
                REQUIRE(queue.front() == expected.front());
                const size_t probe = random() % expected.size();
                REQUIRE(queue[probe] == expected[probe]);
            }
        }
    }
}

TEST_CASE("fifo queue holds room for at most one and a half times its longest length", "[detect][fifo]") {
    FifoQueue<uint64_t> queue;
    CHECK(queue.capacity() == 0);  // an empty queue costs nothing
    size_t longest = 0;
    for (uint64_t item = 0; item < 530'000; ++item) {  // W1's TIME_WAIT queue at its longest
        queue.push_back(item);
        longest = std::max(longest, queue.size());
        REQUIRE(queue.capacity() <= longest + longest / 2 + 1);
        if (item % 3 == 0) {
            queue.pop_front();
        }
    }
    CHECK(queue.capacity() >= queue.size());
}
