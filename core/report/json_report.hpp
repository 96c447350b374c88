#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "report/json_report_writer.hpp"
#include "report/packet_sightings.hpp"

namespace tcpscope {

/// The JSON report contract's version, in every document's "schema" field.
inline constexpr const char* kReportSchema = "tcpscope/1";

using Json = nlohmann::ordered_json;

/// Writes the full report of `tcpscope-cli analyze` (schema, capture, flows, findings, and with
/// strace logs, `alignment` not null, the syscalls section and each flow's syscalls) to `out` as
/// it goes, in the layout of nlohmann's dump(2): memory stays flat however many flows there are.
void writeAnalysisReportJson(std::ostream& out, const CaptureAnalysis& analysis,
                             const StraceAlignment* alignment = nullptr);
/// The same report with `sections` (an object: the capture points' `points` and `hops`) written as
/// top-level members after `capture`; they are freed once written.
void writeAnalysisReportJson(std::ostream& out, const CaptureAnalysis& analysis, const StraceAlignment* alignment,
                             Json sections);
/// The same report through `writer` (its layout), with `captureMembers` (an object) appended to
/// the capture section (a live capture's counters).
void writeAnalysisReportJson(JsonStreamWriter& writer, const CaptureAnalysis& analysis,
                             const StraceAlignment* alignment, const Json& captureMembers);
/// Writes the report of `tcpscope-cli flows` (schema, capture, `sections` as in the analysis report,
/// flows), as dump(2) would.
void writeFlowsReportJson(std::ostream& out, const CaptureAnalysis& analysis,
                          const StraceAlignment* alignment = nullptr, Json sections = Json::object());
/// Writes the report of `tcpscope-cli packets` (schema and one object per TCP packet, of one flow
/// if given), as dump(1) would.
/// With `seenAt` (several capture points), each packet's `seen_at`.
void writePacketsReportJson(std::ostream& out, const CaptureAnalysis& analysis, std::optional<uint32_t> flow,
                            const PacketSightingsFn& seenAt = {}, const PacketSelectionFn& selected = {});

/// The analysis report as a tree (parsed from the written text: for small captures and tests).
Json analysisReportJson(const CaptureAnalysis& analysis, const StraceAlignment* alignment = nullptr);

/// The `capture` section alone.
Json captureJson(const CaptureAnalysis& analysis);

}  // namespace tcpscope
