#pragma once
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "report/ladder_syscalls.hpp"
#include "report/sequence_diagram.hpp"
#include "views/sequence_layout.hpp"
#include "views/timeline_model.hpp"

namespace tcpscope::ui {

/// One timeline lane per traced socket tied to a connection, right below that connection's lane:
/// its calls (writes, reads, the waits that reported it ready, its life calls) on the capture's clock.
std::vector<TimelineLane> timelineSyscallLanes(const StraceAlignment& alignment);

/// ladderSyscalls() for the ladder view: the same calls, labels and segments, with their colours.
std::vector<SequenceSyscall> sequenceSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram);

}  // namespace tcpscope::ui
