#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"

namespace tcpscope {

/// The JSON report contract's version, in every document's "schema" field.
inline constexpr const char* kReportSchema = "tcpscope/1";

using Json = nlohmann::ordered_json;

/// The full report of `tcpscope-cli analyze`: schema, capture, flows, findings, and with strace
/// logs (`alignment` not null) the syscalls section and each flow's syscalls.
Json analysisReportJson(const CaptureAnalysis& analysis, const StraceAlignment* alignment = nullptr);
/// The report of `tcpscope-cli flows`: schema, capture, flows.
Json flowsReportJson(const CaptureAnalysis& analysis, const StraceAlignment* alignment = nullptr);
/// The report of `tcpscope-cli packets`: schema and one object per TCP packet (of one flow if given).
Json packetsReportJson(const CaptureAnalysis& analysis, std::optional<uint32_t> flow);

/// The `capture` section alone.
Json captureJson(const CaptureAnalysis& analysis);
/// One flow object of the `flows` array, with its time lost by finding kind.
Json flowJson(const Connection& connection, const std::map<std::string, double>& timeLostMs);
/// One finding object of the `findings` array.
Json findingJson(const Finding& finding);

}  // namespace tcpscope
