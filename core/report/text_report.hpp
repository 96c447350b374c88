#pragma once
#include <cstdint>
#include <optional>
#include <ostream>

#include "analysis/capture_analysis.hpp"
#include "report/packet_sightings.hpp"

namespace tcpscope {

/// The text report of `tcpscope-cli analyze`: capture summary, findings by time lost, connections.
void writeAnalysisText(std::ostream& out, const CaptureAnalysis& analysis);
/// The capture summary block (files, formats, counts, time span, warnings).
void writeCaptureText(std::ostream& out, const CaptureAnalysis& analysis);
/// The connection table, one line per connection generation.
void writeFlowsText(std::ostream& out, const CaptureAnalysis& analysis);
/// One line per TCP packet (of one flow if given), with Wireshark's frame numbers and analysis flags.
void writePacketsText(std::ostream& out, const CaptureAnalysis& analysis, std::optional<uint32_t> flow,
                      const PacketSightingsFn& seenAt = {}, const PacketSelectionFn& selected = {});

}  // namespace tcpscope
