#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "align/strace_alignment.hpp"
#include "decode/ip_address.hpp"

namespace tcpscope {

/// When the traced processes' connect() calls failed with EADDRNOTAVAIL (no free local port), on
/// the capture's clock, sorted: those to `server` when it is given (a call whose address the trace
/// did not keep counts too), else all of them.
std::vector<int64_t> failedConnectTimes(const StraceAlignment& alignment, const std::optional<Endpoint>& server);

}  // namespace tcpscope
