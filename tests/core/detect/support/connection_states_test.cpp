// The per-connection state store of the detectors: both sides of a connection are built at its
// first lookup, so a detector may hold one side while it looks up the other (the delayed-ACK
// detector once wrote to freed memory when the second lookup grew the vector).
#include <catch2/catch.hpp>

#include <vector>

#include "detect/support/connection_states.hpp"

namespace tcpscope {

TEST_CASE("a connection's two sides stay in place while the other is looked up", "[detect]") {
    ConnectionStates<int, 2> states;
    for (uint32_t connection = 0; connection < 10000; ++connection) {
        int& client = states.of(connection, 0);
        client = static_cast<int>(connection);
        const int* where = &client;
        int& server = states.of(connection, 1);
        server = -static_cast<int>(connection);
        REQUIRE(&states.of(connection, 0) == where);
        REQUIRE(client == static_cast<int>(connection));
    }
    CHECK(states.size() == 20000);
    CHECK(states[2 * 1234] == 1234);
    CHECK(states[2 * 1234 + 1] == -1234);
}

TEST_CASE("only the connections looked up are built, in id order", "[detect]") {
    ConnectionStates<int> states;
    states.of(4) = 7;
    CHECK(states.size() == 5);
    CHECK(states[0] == 0);
    CHECK(states[4] == 7);
    int sum = 0;
    for (int value : states) {
        sum += value;
    }
    CHECK(sum == 7);
}

TEST_CASE("a record pool reuses released records, reset, and keeps the others in place", "[detect]") {
    RecordPool<std::vector<int>> pool;
    std::vector<uint32_t> taken;
    for (int record = 0; record < 1000; ++record) {  // several chunks
        taken.push_back(pool.take());
        pool[taken.back()].push_back(record);
    }
    const std::vector<int>* kept = &pool[taken[999]];
    CHECK(pool.inUse() == 1000);
    const size_t held = pool.bytesHeld();

    pool[taken[10]].assign(100, 0);
    pool.release(taken[10]);
    CHECK(pool.inUse() == 999);
    const uint32_t again = pool.take();
    CHECK(again == taken[10]);            // the released one, not a new one
    CHECK(pool[again].empty());           // reset for its next user
    CHECK(pool[again].capacity() >= 100);  // a container keeps its storage
    CHECK(pool.bytesHeld() <= held + 64);  // no new chunk (the free list may have grown)
    CHECK(&pool[taken[999]] == kept);
    CHECK(pool[taken[999]] == std::vector<int>{999});
}

}  // namespace tcpscope
