// The chunked store behind the connection table and the detectors' per-connection states: entries
// never move while it grows, and a chunk is freed only once every entry in it is released.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "tcp/chunked_store.hpp"

namespace tcpscope {

TEST_CASE("chunked store: entries stay in place while it grows, in id order", "[tcp][store]") {
    ChunkedStore<int, 16> store;
    int& first = store.append();
    first = 41;
    for (int value = 1; value < 1000; ++value) {
        store.append(value);
    }
    CHECK(&store[0] == &first);
    CHECK(store.size() == 1000);
    CHECK(store.front() == 41);
    CHECK(store.back() == 999);
    CHECK(store.at(500) == 500);
    CHECK_THROWS_AS(store.at(1000), std::out_of_range);
    int expected = 0;
    for (const int value : store) {
        CHECK(value == (expected == 0 ? 41 : expected));
        ++expected;
    }
    CHECK(expected == 1000);
}

TEST_CASE("chunked store: a chunk is freed once all its entries are released, in any order", "[tcp][store]") {
    ChunkedStore<int, 16> store(64);  // four chunks
    for (size_t index = 0; index < store.size(); ++index) {
        store[index] = static_cast<int>(index);
    }
    const size_t full = store.bytesHeld();
    for (size_t index = 31; index >= 17; --index) {
        store.release(index);  // all of the second chunk but entry 16
    }
    CHECK(store.holds(20));
    CHECK(store.bytesHeld() == full);
    store.release(16);
    CHECK_FALSE(store.holds(20));
    CHECK(store.holds(15));
    CHECK(store.holds(32));
    CHECK(store.bytesHeld() == full / 4 * 3);
    CHECK_THROWS_AS(store.at(20), std::out_of_range);
    CHECK(store.at(32) == 32);

    // Iteration skips the freed chunk; the others are intact.
    size_t visited = 0;
    long sum = 0;
    for (auto it = store.begin(); it != store.end(); ++it) {
        CHECK(it.index() / 16 != 1);
        sum += *it;
        ++visited;
    }
    CHECK(visited == 48);
    CHECK(sum == (63 * 64 / 2) - (16 + 31) * 16 / 2);
}

TEST_CASE("chunked store: a chunk whose entries were all released before it was built is never built",
          "[tcp][store]") {
    ChunkedStore<int, 16> store(16);
    store.release(16, 16);  // entries 16 .. 31, not built yet
    store.growTo(40);
    CHECK(store.size() == 40);
    CHECK(store.holds(0));
    CHECK_FALSE(store.holds(16));
    CHECK(store.holds(32));
    CHECK(store.bytesHeld() == 2 * 16 * sizeof(int));
}

TEST_CASE("chunked store: a copy holds its own entries", "[tcp][store]") {
    ChunkedStore<int, 16> store = {1, 2, 3};
    ChunkedStore<int, 16> copy = store;
    store[1] = 20;
    CHECK(copy.size() == 3);
    CHECK(copy[1] == 2);
    CHECK(store[1] == 20);
}

}  // namespace tcpscope
