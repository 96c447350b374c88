#pragma once
#include <ostream>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "finding/finding.hpp"
#include "live/capture_interface.hpp"
#include "live/live_session.hpp"

namespace tcpscope {

/// `capture.live` of the report of a live capture: the interface, the filter, what the kernel
/// captured and dropped, what the analysis left out, and the files written.
nlohmann::ordered_json liveCaptureJson(const LiveCaptureSummary& summary);
/// The same as text, a few lines for the head of the text report.
void writeLiveCaptureText(std::ostream& out, const LiveCaptureSummary& summary);

/// One line of the finding stream of `tcpscope-cli capture --format json`: `event` ("finding" when
/// a detector makes it, "finding_update" while an ongoing one grows and when it ends,
/// "finding_withdrawn"), `id` (the same on every line of one finding), `kind`, `severity`, `flow`,
/// `ts`, `duration_ms`, `ongoing`, `provisional`, `summary`, `frames` (the full finding, with its
/// evidence as it grew, is in the report at the end).
nlohmann::ordered_json liveFindingEventJson(const Finding& finding, std::string_view event = "finding");

/// The list of `tcpscope-cli interfaces --format json`.
nlohmann::ordered_json interfacesJson(const std::vector<CaptureInterface>& interfaces);
/// The same as text, one line per interface.
void writeInterfacesText(std::ostream& out, const std::vector<CaptureInterface>& interfaces);

}  // namespace tcpscope
