#pragma once
#include <QTextBrowser>

#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

/// The capture points of an analysis as tables: each point's files, packets and clock against the
/// reference point (offset and drift with their uncertainty), then each hop's one-way delays each
/// way (median and p99): the CLI's "Capture points" block.
QString pointsHtml(const CapturePointsSummary& summary);

/// The "Capture points" tab: pointsHtml() of the results' points, empty without points.
class PointsPanel : public QTextBrowser {
    Q_OBJECT

public:
    explicit PointsPanel(QWidget* parent = nullptr);
    void showResults(const ResultsPtr& results);
};

}  // namespace tcpscope::ui
