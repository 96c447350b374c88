#pragma once
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "report/sequence_diagram.hpp"
#include "views/sequence_layout.hpp"
#include "views/timeline_model.hpp"

namespace tcpscope::ui {

/// "sendto 35 B", "recvfrom 163 B", "epoll_wait 46.3 ms", "connect EINPROGRESS": a system call
/// as short as a lane or a lifeline has room for.
std::string syscallShortLabel(const StraceLog& log, const SyscallRecord& call);

/// One timeline lane per traced socket tied to a connection, right below that connection's lane:
/// its calls (writes, reads, the waits that reported it ready, its life calls) on the capture's clock.
std::vector<TimelineLane> timelineSyscallLanes(const StraceAlignment& alignment);

/// The system calls of the traced processes at the ends of `diagram`'s connections, each on its
/// lifeline: the calls on the sockets, and the waits of the same process during the sockets' lives
/// (once per lifeline). Writes and reads name the frame of their first segment.
std::vector<SequenceSyscall> sequenceSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram);

}  // namespace tcpscope::ui
