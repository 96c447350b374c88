#pragma once
#include <cstdint>
#include <vector>

#include "align/connection_segments.hpp"
#include "align/strace_alignment.hpp"

namespace tcpscope {

/// Ties every successful write-like and read-like call on a matched socket whose place in its
/// streams is known (TracedSocket::streamBasesKnown) to the segments whose bytes it wrote or read:
/// a write to the segments that carried any of its bytes (the first transmission and any resend),
/// a read to the segments, sent by the peer, whose bytes it consumed. Also returns, per write,
/// the time from the call to the first segment carrying its first byte on the log's own clock
/// plus `logToCaptureNs` — the samples the clock fit uses.
struct LinkResult {
    std::vector<CallLink> links;
    std::vector<std::vector<int64_t>> writeDelaySamplesNs;  ///< per log
};
LinkResult linkSyscallsToSegments(const std::vector<AlignedLog>& logs, const std::vector<TracedSocket>& sockets,
                                  const ConnectionSegments& segments, const std::vector<int64_t>& logToCaptureNs);

}  // namespace tcpscope
