#pragma once
#include <string_view>

#include "capture/packet_process.hpp"

namespace tcpscope {

/// True if `comment` (one opt_comment of a packet) starts as ptcpdump's process comments do: a
/// "PID: ", "ThreadId: ", "UserId: ", "ParentPID: ", "ContainerName: " or "PodName: " line.
bool looksLikePtcpdumpComment(std::string_view comment);

/// Adds what one of ptcpdump's packet comments says of the packet's process to `process`: lines
/// "Key: value" (PID, Cmd or Command, Args, ParentPID, ParentCmd or ParentCommand, ContainerName,
/// PodName, PodNamespace; ptcpdump's other keys are skipped). False, leaving `process` as it was,
/// for a comment that is not ptcpdump's: a line without a key, or a pid that is no positive number.
bool readPtcpdumpComment(std::string_view comment, PacketProcess& process);

}  // namespace tcpscope
