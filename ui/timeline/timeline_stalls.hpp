#pragma once
#include <cstdint>
#include <vector>

#include "finding/finding.hpp"
#include "finding/finding_list.hpp"
#include "finding/kind_info.hpp"
#include "tcp/connection.hpp"

namespace tcpscope::ui {

/// One stretch of lost time drawn on a lane: a single span of a finding (Finding::spans) or, for
/// findings that have none, the finding's own time and duration.
struct StallSpan {
    static constexpr uint32_t kWholeFinding = UINT32_MAX;

    int64_t startNs = 0;
    int64_t endNs = 0;                    ///< == startNs for an instant (drawn a few pixels wide)
    uint32_t finding = 0;                 ///< Finding::id
    uint32_t connection = kNoConnection;  ///< lane; kNoConnection for capture-wide findings
    uint32_t instance = kWholeFinding;    ///< position in the finding's spans
    StallGroup cause = StallGroup::Other;  ///< its finding's kind's group (KindInfo::stallGroup)
};

/// Every span of `findings`, in finding order: the spans each finding lists (a stall, a pause, a
/// delayed handshake, on the lane of its connection), or the finding's own time. A span naming a
/// connection not in `connections` goes on its finding's lane.
std::vector<StallSpan> stallSpans(const FindingList& findings, const ConnectionStore& connections);

}  // namespace tcpscope::ui
