// The per-connection state store of the detectors: both sides of a connection are built at its
// first lookup, so a detector may hold one side while it looks up the other (the delayed-ACK
// detector once wrote to freed memory when the second lookup grew the vector).
#include <catch2/catch.hpp>

#include "detect/connection_states.hpp"

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

}  // namespace tcpscope
