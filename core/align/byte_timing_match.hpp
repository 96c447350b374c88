#pragma once
#include <cstdint>
#include <vector>

#include "align/connection_segments.hpp"
#include "align/strace_alignment.hpp"

namespace tcpscope {

/// How well a log's clock is known when its calls are compared with segments.
struct CallClock {
    bool timed = false;        ///< false for logs without timestamps: only byte counts can be compared
    int64_t offsetNs = 0;      ///< capture time = log time + offsetNs
    int64_t toleranceNs = 0;   ///< how far off that offset may be
};

/// Ties the sockets that neither -yy nor their history tied to a connection by comparing their
/// writes and reads with the segments of every connection alive at the time: a write of N bytes
/// should be followed at once (or after a Nagle hold) by the first segment carrying those bytes,
/// never preceded by it; a read should come just after the last of its bytes arrived, and never
/// before. Each (socket, connection side) pair gets a score; a socket is tied to the best pair
/// only if no other pair comes close, else it is listed in `ambiguous`. For every tied socket not
/// seen from its start (trace attached later, or the fd's creation not in the log) it also finds
/// where in each stream its first traced write and read were (TracedSocket::sentBase,
/// receivedBase), so its calls can be linked to segments.
void matchSocketsByBytesAndTiming(std::vector<TracedSocket>& sockets, const std::vector<AlignedLog>& logs,
                                  const AnalysisEngine& engine, const std::vector<CallClock>& clocks,
                                  std::vector<AmbiguousSocket>& ambiguous);

}  // namespace tcpscope
