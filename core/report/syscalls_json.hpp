#pragma once
#include <cstdint>

#include "align/strace_alignment.hpp"
#include "report/json_report.hpp"

namespace tcpscope {

/// The report's `syscalls` section: one object per strace log with its processes, call counts,
/// clock offset and how well it fits, and lines not understood.
Json syscallsJson(const StraceAlignment& alignment);

/// The `syscalls` object of one flow: the traced sockets that were this connection, their calls
/// (at most `maxCalls`) with the frames each is tied to, and where the flow's time went between
/// the application (blocked waiting or reading) and the kernel (bytes written but not yet sent).
Json flowSyscallsJson(const StraceAlignment& alignment, uint32_t connection, size_t maxCalls = 500);

}  // namespace tcpscope
