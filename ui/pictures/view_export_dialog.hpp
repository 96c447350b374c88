#pragma once
#include <QString>

#include "sequence/sequence_view.hpp"
#include "timeline/timeline_view.hpp"

class QWidget;

namespace tcpscope::ui {

class ChartView;

/// Writes what a view shows now to `path` (format by suffix; `scale` for PNG): the sequence
/// diagram's visible packets, or the timeline's visible time range with every lane. Returns an
/// empty string or one line saying why not.
QString exportShownView(const QString& path, double scale, const TimelineView& timeline, const SequenceView& sequence,
                        bool sequenceShown);

/// Writes the chart shown by `chart` to `path` (format by suffix; `scale` for PNG). Returns an
/// empty string or one line saying why not.
QString exportChart(const QString& path, double scale, const ChartView& chart, const AnalysisResults* results);

/// `path` as the export dialog writes it: with the extension of the chosen file type (`filter`,
/// e.g. "PDF document (*.pdf)") when the name typed has none of .svg, .png, .pdf.
QString withFilterExtension(const QString& path, const QString& filter);

/// File > Export diagram: asks for a file (SVG, PDF, PNG, PNG at 2x) and exports the shown view.
void exportShownViewDialog(QWidget* parent, const TimelineView& timeline, const SequenceView& sequence,
                           bool sequenceShown);
/// File > Export diagram while the Charts tab is shown.
void exportChartDialog(QWidget* parent, const ChartView& chart, const AnalysisResults* results);

}  // namespace tcpscope::ui
