#pragma once
#include <cstdint>
#include <vector>

#include "align/traced_socket.hpp"
#include "engine/analysis_engine.hpp"

namespace tcpscope {

/// One offset the writes suggest: capture time = log time + offsetNs.
struct ClockCandidate {
    int64_t offsetNs = 0;
    uint32_t peakWrites = 0;  ///< writes followed within 250 us at that offset by a segment of their size
};

/// The offsets a log's writes suggest, highest pile first.
struct ClockSearch {
    uint32_t writes = 0;  ///< writes compared
    std::vector<ClockCandidate> candidates;
};

/// Where to look: capture time - log time lies within halfWidthNs of one of the centres.
struct ClockSearchWindow {
    std::vector<int64_t> centersNs;
    int64_t halfWidthNs = 0;
};

/// Looks for the clock offset of a log none of whose sockets is tied to a connection yet (no -yy,
/// no connect or accept in the log): most writes of N bytes are followed within tens of
/// microseconds by a segment of N bytes, so over all pairs of a write and a segment of its size
/// the differences of their times pile up at the offset, while pairs of unrelated calls and
/// segments spread out. Held writes and regular workloads pile up elsewhere too, so it returns
/// the highest piles (at least 3 writes and a fifth of all), for the matching to choose from.
ClockSearch searchClockOffset(const std::vector<TracedSocket>& sockets, uint32_t logIndex, const StraceLog& log,
                              const AnalysisEngine& engine, const ClockSearchWindow& window);

}  // namespace tcpscope
