#pragma once
#include <cstdint>

#include "analysis/capture_analysis.hpp"
#include "charts/chart_view.hpp"
#include "loading/analysis_results.hpp"
#include "series/connection_rate.hpp"

namespace tcpscope::ui {

/// The charts the panel offers. Each fills a ChartView with series computed by core/series.
enum class ChartKind { TimeSequence, WindowScaling, Throughput, Rtt, IoGraph, HostPopulation, ConnectionRate };

/// Every kind, in the order the chooser lists them.
inline constexpr ChartKind kChartKinds[] = {
    ChartKind::TimeSequence, ChartKind::WindowScaling,  ChartKind::Throughput,    ChartKind::Rtt,
    ChartKind::IoGraph,      ChartKind::HostPopulation, ChartKind::ConnectionRate};

/// "Time-sequence", "RTT", ... as the chooser lists them.
QString chartKindName(ChartKind kind);

/// One series of a computed chart: its points (or, for a rate, its event times) and its look.
struct ChartSeriesData {
    QString name;
    std::vector<ChartPoint> points;
    std::vector<double> rateTimes;  ///< sorted seconds, when `rate`
    bool rate = false;
    bool interval = false;  ///< `points` are events summed per interval (x seconds, y bytes)
    IntervalMeasure measure = IntervalMeasure::Packets;
    size_t averageIntervals = 0;  ///< an interval series drawn as its moving average over this many
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
    QString problem;  ///< why the chart is not what was asked (a display filter's error), shown beside it
};

/// What an I/O graph shows: the whole capture and one line per display filter.
struct IoGraphRequest {
    std::vector<std::string> filters;  ///< display filters, as the packet list takes them
    IntervalMeasure measure = IntervalMeasure::Packets;
    bool operator==(const IoGraphRequest&) const = default;
};

/// Splits the I/O graph's filter box at ';' into its filters, each trimmed, empty ones left out.
std::vector<std::string> splitIoFilters(const QString& text);

/// Time-sequence (Stevens) graph of what `sender` sent on `connection`; `results` has a packet
/// index (complete, or a live capture's snapshot).
ChartData timeSequenceData(const AnalysisResults& results, uint32_t connection, Side sender);
/// Wireshark's Window Scaling graph of what `sender` sent: the receiver's scaled window against
/// the bytes in flight.
ChartData windowScalingData(const AnalysisResults& results, uint32_t connection, Side sender);
/// Wireshark's Throughput graph of both directions of `connection`: payload bytes per interval
/// (from the zoom) and their moving average.
ChartData throughputData(const AnalysisResults& results, uint32_t connection);
/// Wireshark's I/O graph of the whole capture: packets or bytes per interval of every TCP packet,
/// and of those that pass each filter; a filter that does not compile is named in `problem`.
ChartData ioGraphData(const AnalysisResults& results, const IoGraphRequest& request);
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
