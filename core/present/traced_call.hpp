#pragma once
#include <cstdint>
#include <string>

#include "strace/strace_log.hpp"

namespace tcpscope {

/// Where a system call is in an alignment: its log and its record there.
struct SyscallLocation {
    uint32_t log = 0;     ///< index into StraceAlignment::logs
    uint32_t record = 0;  ///< index into that log's records
};

/// "sendto 35 B", "recvfrom 163 B", "epoll_wait 46.3 ms", "connect EINPROGRESS": a system call
/// as short as a lane or a lifeline has room for.
std::string syscallShortLabel(const StraceLog& log, const SyscallRecord& call);

}  // namespace tcpscope
