#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "decode/ip_address.hpp"

namespace tcpscope {

/// When the traced processes' connect() calls failed with EADDRNOTAVAIL (no free local port), on
/// the capture's clock, sorted: those to `server` when it is given (a call whose address the trace
/// did not keep counts too), else all of them.
std::vector<int64_t> failedConnectTimes(const StraceAlignment& alignment, const std::optional<Endpoint>& server);

/// The EADDRNOTAVAIL connect() calls towards one server (nullopt: calls whose address the trace
/// did not keep), on the capture's clock, sorted.
struct FailedConnectCalls {
    std::optional<Endpoint> server;
    std::vector<int64_t> timesNs;
};

/// Every EADDRNOTAVAIL connect() call of the traced processes, by the server asked for: the
/// servers with most failures first (then in order of their first failure).
std::vector<FailedConnectCalls> failedConnectsByServer(const StraceAlignment& alignment);

/// What the logs show of the capture, for a status line or a report: "14 traced sockets", "150 of 742
/// traced sockets on captured connections", or, for logs that follow no socket (strace -e connect),
/// their connect() calls: "30,001 traced connect() calls, 1,745 failed with EADDRNOTAVAIL".
std::string tracedSocketsText(const StraceAlignment& alignment);

}  // namespace tcpscope
