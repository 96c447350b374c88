#pragma once
#include <string>

#include "recorded/recorded_call.hpp"
#include "strace/strace_log.hpp"

namespace tcpscope {

/// The recorded calls of `calls` as the strace model the alignment reads: what `strace -f -ttt -T
/// -yy` would have shown of them, with times since the epoch (CLOCK_REALTIME, from the recorded
/// clock relation, so no clock fitting is needed), each socket call decorated with the 4-tuple the
/// kernel gave. `name` stands for the log in the report (the capture's path).
StraceLog straceLogOfRecordedCalls(const RecordedCalls& calls, const std::string& name);

}  // namespace tcpscope
