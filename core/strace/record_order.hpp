#pragma once
#include <vector>

#include "strace/strace_log.hpp"
#include "strace/syscall_record.hpp"

namespace tcpscope {

/// Sorts records by tsNs, file order breaking ties. Cheap for the nearly sorted input a log gives
/// (joined calls arrive at their resumed line, -ff files one after the other): the records already
/// in order stay one run, only the late ones are sorted, then the two are merged.
void sortRecordsByTime(std::vector<SyscallRecord>& records);

/// The records of each pid, as indexes in time order, sorted by pid.
std::vector<StraceProcess> indexProcesses(const std::vector<SyscallRecord>& records);

}  // namespace tcpscope
