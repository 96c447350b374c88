#pragma once
// How both clients name the process of a connection end: the text report's flow line and the GUI's
// Process column say it the same way.
#include <string>

#include "engine/connection_processes.hpp"

namespace tcpscope {

/// "curl (pid 4242)", "nginx", "pid 80": the command's last path component and the pid, as far as
/// known (control characters as spaces).
std::string processLabel(const PacketProcess& process);

/// The label of an end's first process, then "and N more" for the other ones seen at that end.
std::string endProcessesLabel(const ConnectionProcesses& processes, const ConnectionProcesses::End& end);

/// "client curl (pid 4242), server nginx (pid 80)": the ends of `connection` whose process is
/// known, or empty.
std::string connectionProcessesLabel(const ConnectionProcesses& processes, uint32_t connection);

}  // namespace tcpscope
