#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "align/strace_alignment.hpp"
#include "present/traced_call.hpp"

namespace tcpscope {

// Which call goes in which of the timeline's syscall lanes, decided here only: the timeline
// builds its lanes, a click finds its call, and a note pinned to a call finds its lane from these.

/// The traced sockets that get a syscall lane, in lane order (indices into alignment.sockets): one
/// lane per socket tied to a connection, in the alignment's order, drawn below that connection's lane.
std::vector<uint32_t> syscallLaneSockets(const StraceAlignment& alignment);

/// The records a syscall lane of `socket` shows: its calls and the waits that reported it ready,
/// in record order without repeats.
std::vector<uint32_t> syscallLaneRecords(const TracedSocket& socket);

/// The socket (an index into alignment.sockets) whose syscall lane shows the call at `location`;
/// nullopt when no lane shows it.
std::optional<uint32_t> syscallLaneSocketOf(const StraceAlignment& alignment, SyscallLocation location);

/// The lane (a position in syscallLaneSockets()) that shows the call at `location`; nullopt when
/// no lane shows it.
std::optional<size_t> syscallLaneOf(const StraceAlignment& alignment, SyscallLocation location);

/// The log and record of event `event` of lane `lane` (its calls in syscallLaneRecords() order);
/// nullopt if there is no such event.
std::optional<SyscallLocation> syscallOfLaneEvent(const StraceAlignment& alignment, size_t lane, size_t event);

}  // namespace tcpscope
