#pragma once
#include <span>

#include "recorded/recorded_call.hpp"

namespace tcpscope {

/// The calls of `recorded` made on these connections, and the calls of no socket (the waits) of the
/// threads that made them, with the clock relation and the calls lost: what a pass over a few
/// stalls needs of a long recording (LiveStallVerdicts).
RecordedCalls callsOfConnections(const RecordedCalls& recorded, std::span<const ConnectionEnds> connections);

}  // namespace tcpscope
