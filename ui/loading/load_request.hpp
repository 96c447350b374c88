#pragma once
#include <QStringList>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "points/capture_point.hpp"

namespace tcpscope::ui {

/// What one load reads and how: captures (merged in time order), the strace logs of the traced
/// processes (NAME.PID files of one strace -ff run given together form one log), the filter and
/// detector thresholds, and how the logs' clocks are put on the capture's. With `points`, the
/// captures are the capture points of one incident (analyzePoints) instead of one merged capture.
struct LoadRequest {
    QStringList captures;
    /// Capture points (File > Open capture points): empty for captures opened the usual way;
    /// `captures` then lists every point's files, in the order of the points.
    std::vector<CapturePoint> points;
    QStringList straceLogs;
    AnalysisOptions options;
    StraceClockOptions clock;
};

}  // namespace tcpscope::ui
