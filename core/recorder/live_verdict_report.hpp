#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "recorder/live_stall_verdicts.hpp"

namespace tcpscope {

/// One line of the finding stream of `tcpscope-cli capture --syscalls --format json`: event
/// "verdict", the finding's `id` (as on its "finding" lines), `kind`, `flow`, `ts` (when it was
/// given), `verdict` ("confirmed", "refuted", "no_trace"), the stalls judged (`stalls`,
/// `confirmed`, `refuted`, `without_trace`), `stall_ended` and `after_stall_ms` (the end of the last
/// of them, and how long after it the verdict came), and of the stall it cites: `pattern`,
/// `held_write_bytes`, `kernel_hold_ms`, `nodelay_set`.
nlohmann::ordered_json liveVerdictEventJson(const LiveStallVerdict& verdict);
/// The same as the text after "verdict delayed_ack_stall #FLOW: ".
std::string liveVerdictText(const LiveStallVerdict& verdict);

/// The line of a live verdict the report revised: event "verdict_revised", `id`, `kind`, `flow`,
/// `live` and `report` (the verdict that stands).
nlohmann::ordered_json revisedVerdictEventJson(const RevisedVerdict& revised);
/// The same as text.
std::string revisedVerdictText(const RevisedVerdict& revised);

}  // namespace tcpscope
