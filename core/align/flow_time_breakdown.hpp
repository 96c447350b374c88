#pragma once
#include <cstdint>

#include "align/strace_alignment.hpp"

namespace tcpscope {

/// Where the traced processes' time on one connection went. Blocked time is split by what held
/// things up meanwhile, so blockedWhileHeldNs + blockedOnPeerNs == blockedNs; kernelHeldNs counts
/// every write's hold, also the part the process spent doing something else.
struct FlowTimeBreakdown {
    uint32_t blockingCalls = 0;      ///< poll/select/epoll waits that returned this connection's socket ready, and reads, with a duration
    uint32_t callsWithoutDuration = 0;  ///< such calls whose duration the log does not give (no -T, not split)
    int64_t blockedNs = 0;           ///< time inside those calls
    int64_t blockedWhileHeldNs = 0;  ///< of it, while bytes the process had written on the connection were still in its kernel
    int64_t blockedOnPeerNs = 0;     ///< the rest: its bytes were on the wire, the peer's were not yet in (network and peer)
    int64_t kernelHeldNs = 0;        ///< sum over writes: from the call to the first segment carrying its first byte
    uint32_t heldWrites = 0;         ///< writes whose first byte left more than 1 ms after the call
};

/// The breakdown of `connection` over all the sockets tied to it.
FlowTimeBreakdown flowTimeBreakdown(const StraceAlignment& alignment, uint32_t connection);

}  // namespace tcpscope
