#pragma once
#include <cstdint>

#include "analysis/capture_analysis.hpp"
#include "charts/chart_view.hpp"
#include "series/connection_rate.hpp"

namespace tcpscope::ui {

/// The charts the panel offers. Each fills a ChartView with series computed by core/series.
enum class ChartKind { TimeSequence, Rtt, HostPopulation, ConnectionRate };

/// "Time-sequence", "RTT", ... as the chooser lists them.
QString chartKindName(ChartKind kind);

/// Time-sequence (Stevens) graph of what `sender` sent on `connection`.
void showTimeSequence(ChartView& view, const CaptureAnalysis& analysis, uint32_t connection, Side sender);
/// Round-trip times of `sender`'s segments on `connection` (Wireshark's ack_rtt, Karn's rule).
void showRtt(ChartView& view, const CaptureAnalysis& analysis, uint32_t connection, Side sender);
/// TIME_WAIT population and ports in use of `host`, with the port range's capacity.
void showHostPopulation(ChartView& view, const CaptureAnalysis& analysis, const IpAddress& host);
/// New connections and SYN retransmissions per second over the capture.
void showConnectionRate(ChartView& view, const CaptureAnalysis& analysis, const ConnectionAttempts& attempts);

}  // namespace tcpscope::ui
