#pragma once
#include <cstdint>
#include <vector>

#include "decode/ip_address.hpp"
#include "incident/connection_groups.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// When the clients of a listener sent their SYN again: the n-th retransmission's time after the
/// connection's first SYN, as measured.
struct SynRetry {
    uint32_t retry = 0;  ///< 1 for the first retransmission
    uint64_t count = 0;  ///< connections that sent it
    double medianS = 0;  ///< its time after the first SYN, the median of the connections whose last it was
};

/// The handshakes of the connections to one listening endpoint, as its clients felt them.
struct ListenerFigures {
    uint64_t connections = 0;
    uint64_t handshakesDelayed = 0;  ///< connections that sent their SYN more than once
    uint64_t synsDropped = 0;        ///< SYNs sent again: each earlier one went unanswered
    std::vector<SynRetry> retries;   ///< by retransmission, in order
    // Handshake time, first SYN to SYN-ACK, over every connection that got one.
    double handshakeP50Ms = 0;
    double handshakeP99Ms = 0;
    double handshakeMaxMs = 0;
    double handshakeWallMs = 0;        ///< wall-clock time during which a delayed handshake was waiting
    uint64_t connectionsAnswered = 0;  ///< connections on which the server sent data
    double rateAnsweredPerS = 0;       ///< answered connections per second, first SYN to the last answered one's end
    std::vector<IpAddress> clients;    ///< in address order (at most kMaxClients)
    // Events: the first SYN that went unanswered, the last delayed handshake's answer.
    int64_t firstDroppedNs = 0;
    uint32_t firstDroppedFrame = 0;
    int64_t lastDelayedAnswerNs = 0;

    static constexpr size_t kMaxClients = 64;
};

/// Measures the connections to `listener` (every one in the capture: the handshakes that went through
/// at once are the measure of those that waited).
ListenerFigures measureListener(const ConnectionStore& connections, const ConnectionGroups& groups,
                                const Endpoint& listener);

}  // namespace tcpscope
