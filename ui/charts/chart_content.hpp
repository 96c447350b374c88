#pragma once
#include <cstdint>

#include "analysis/capture_analysis.hpp"
#include "charts/chart_view.hpp"
#include "loading/analysis_results.hpp"
#include "series/connection_rate.hpp"

namespace tcpscope::ui {

/// The charts the panel offers. Each fills a ChartView with series computed by core/series.
enum class ChartKind { TimeSequence, Rtt, HostPopulation, ConnectionRate };

/// "Time-sequence", "RTT", ... as the chooser lists them.
QString chartKindName(ChartKind kind);

/// One series of a computed chart: its points (or, for a rate, its event times) and its look.
struct ChartSeriesData {
    QString name;
    std::vector<ChartPoint> points;
    std::vector<double> rateTimes;  ///< sorted seconds, when `rate`
    bool rate = false;
    SeriesRole role = SeriesRole::Data;
    SeriesStyle style;
};

/// A chart computed away from the GUI thread (no Qt Charts object): titles, series at full
/// resolution and the range "show everything" returns to. showChart() puts it into a view.
struct ChartData {
    QString title;
    QString xTitle;
    QString yTitle;
    int64_t originTsNs = 0;
    std::vector<ChartSeriesData> series;
    std::vector<ShadedSpan> stalls;  ///< the charted connection's stalls: its findings' spans, shaded
    double fromX = 0;
    double toX = 1;
    double fromY = 0;
    double toY = 1;
    bool autoY = false;
};

/// Time-sequence (Stevens) graph of what `sender` sent on `connection`; `results` has a packet
/// index (complete, or a live capture's snapshot).
ChartData timeSequenceData(const AnalysisResults& results, uint32_t connection, Side sender);
/// Round-trip times of `sender`'s segments on `connection` (Wireshark's ack_rtt, Karn's rule).
ChartData rttData(const AnalysisResults& results, uint32_t connection, Side sender);
/// TIME_WAIT population and ports in use of `host`, with the port range's capacity; `results`
/// hold its population series (complete, or a live snapshot made for `host`).
ChartData hostPopulationData(const AnalysisResults& results, const IpAddress& host);
/// New connections and SYN retransmissions per second over the capture (complete, or a live
/// capture's so far), whose first frame is at `originTsNs`.
ChartData connectionRateData(int64_t originTsNs, const ConnectionAttempts& attempts);

/// Replaces what `view` shows by `chart` (on the GUI thread; reduces the series to the view).
void showChart(ChartView& view, ChartData chart);

}  // namespace tcpscope::ui
