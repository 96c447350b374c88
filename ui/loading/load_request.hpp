#pragma once
#include <QStringList>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"

namespace tcpscope::ui {

/// What one load reads and how: captures (merged in time order), the strace logs of the traced
/// processes (NAME.PID files of one strace -ff run given together form one log), the filter and
/// detector thresholds, and how the logs' clocks are put on the capture's.
struct LoadRequest {
    QStringList captures;
    QStringList straceLogs;
    AnalysisOptions options;
    StraceClockOptions clock;
};

}  // namespace tcpscope::ui
