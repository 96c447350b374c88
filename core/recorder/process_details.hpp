#pragma once
#include <cstdint>
#include <string>

namespace tcpscope {

/// What /proc says of a running process beside what the kernel's events carry: its command line,
/// its parent and its cgroup. Fields stay empty (0 for the parent) for what /proc does not say,
/// e.g. once the process has exited.
struct ProcessDetails {
    std::string args;  ///< the command line, its arguments joined by spaces, at most kMaxArgsBytes
    uint32_t parentPid = 0;
    std::string parentCommand;  ///< the parent's comm
    std::string cgroup;         ///< the cgroup v2 path ("0::" in /proc/PID/cgroup), else the first line's

    static constexpr size_t kMaxArgsBytes = 512;
};

/// Reads /proc/PID (or `procRoot`/PID) for `pid`.
ProcessDetails readProcessDetails(uint32_t pid, const std::string& procRoot = "/proc");

}  // namespace tcpscope
