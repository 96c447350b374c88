#pragma once
#include <QString>

#include "pictures/diagram_export.hpp"
#include "loading/analysis_results.hpp"
#include "sequence/sequence_layout.hpp"
#include "sequence/sequence_painter.hpp"
#include "timeline/timeline_view.hpp"

namespace tcpscope::ui {

class ChartView;

/// "proxy-nagle.pcap" (several files: "a.pcap + b.pcap"), from the analysis's inputs.
QString captureName(const AnalysisResults& results);
/// "proxy-nagle.pcap · 2026-11-21 03:28:52.933682 to 03:28:56.484991 UTC (+0.000 s to +3.551 s)".
QString exportSubtitle(const AnalysisResults& results, TimeRange range);
/// "Sequence diagram of flows #0 and #1 (client, proxy, server)", "... of flow #3 (client, server)".
QString sequenceTitle(const SequenceDiagram& diagram);

/// `rows` of a sequence diagram as an export page, drawn by renderSequence (with its legend).
ExportPage sequenceExportPage(const SequenceLayout& layout, SequenceRowRange rows, const SequencePaintOptions& options);
/// The chart shown by `chart` (its visible x range) as an export page at its size on screen (at
/// least 800 x 500), drawn by its render(). `results` names the capture in the subtitle.
ExportPage chartExportPage(const ChartView& chart, const AnalysisResults* results);
/// `range` of a timeline as an export page `widthPx` wide with every lane, drawn by its render().
ExportPage timelineExportPage(const TimelineView& view, TimeRange range, double widthPx);

/// Tallest timeline File > Export diagram writes, at 1x.
inline constexpr double kMaxShownTimelinePx = 4000;
/// `range` of the timeline as shown, for File > Export diagram: every lane when they fit in
/// kMaxShownTimelinePx, else that many pixels of lanes from the one at the top of the view (the
/// subtitle says so).
ExportPage shownTimelineExportPage(const TimelineView& view, TimeRange range, double widthPx);

}  // namespace tcpscope::ui
