#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "detect/finding.hpp"
#include "tcp/connection.hpp"

namespace tcpscope::ui {

/// Why time was lost, as the timeline colours and names it.
enum class StallCause : uint8_t {
    NagleDelayedAck,
    RetransmissionTimeout,
    ZeroWindow,
    PortReuse,
    SynBacklog,
    PortExhaustion,
    TimeWait,
    Other,
};
inline constexpr int kStallCauseCount = 8;

/// The cause of a finding of `kind` (DelayedAckStall -> NagleDelayedAck).
StallCause stallCauseOf(FindingKind kind);
/// The words a span is labelled with: "Nagle + delayed ACK", "Retransmission timeout", ...
std::string_view stallCauseLabel(StallCause cause);

/// One stretch of lost time drawn on a lane: a single stall of a finding (one evidence instance)
/// or, for findings that list none, the finding's own time and duration.
struct StallSpan {
    static constexpr uint32_t kWholeFinding = UINT32_MAX;

    int64_t startNs = 0;
    int64_t endNs = 0;                    ///< == startNs for an instant (drawn a few pixels wide)
    uint32_t finding = 0;                 ///< Finding::id
    uint32_t connection = kNoConnection;  ///< lane; kNoConnection for capture-wide findings
    uint32_t instance = kWholeFinding;    ///< position in the finding's evidence list
    StallCause cause = StallCause::Other;
};

/// Every span of `findings`, in finding order. Instances come from the evidence lists the
/// detectors write: "instances" (ts_offset_ms with hold_ms, gap_ms or closed_ms), "pauses"
/// (start_s, pause_ms) and "connections" (a connection whose handshake was delayed by delay_ms).
/// `connections` places instances that name a connection but no time.
std::vector<StallSpan> stallSpans(const std::vector<Finding>& findings, const ConnectionStore& connections);

}  // namespace tcpscope::ui
