// Shared by the alignment tests: a sample capture analysed and its strace logs aligned, and
// logs rewritten the way other strace options or another machine would have printed them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"

namespace tcpscope::testing {

std::string sample(const std::string& name);

struct Aligned {
    CaptureAnalysis capture;
    StraceAlignment alignment;
};

/// Analyses samples/`captureFile`, aligns `logs` (paths) with it and confirms its findings.
Aligned align(const std::string& captureFile, const std::vector<std::string>& logs, StraceClockOptions clock = {});

/// Delayed-ACK stalls confirmed by the trace (checks that none is refuted).
int confirmedStalls(const CaptureAnalysis& capture);
/// Delayed-ACK stalls found in the capture.
int stalls(const CaptureAnalysis& capture);

/// A copy of `path` in the temporary folder, named `name`, with every line passed through
/// `rewrite` (an empty result drops the line).
std::string rewrittenLog(const std::string& path, const std::string& name,
                         const std::function<std::string(const std::string&)>& rewrite);
/// The same log with every time of day moved by `minutes` (as if recorded in another time zone)
/// and `seconds` (as if on a host whose clock is that far off; 0 to 59).
std::string shiftedLog(const std::string& path, int minutes, int seconds = 0);

}  // namespace tcpscope::testing
