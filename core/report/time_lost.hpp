#pragma once
#include <map>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"

namespace tcpscope {

/// Milliseconds lost, by finding kind ("delayed_ack_stall", ...).
using TimeLostByKind = std::map<std::string, double>;

/// Per connection id, the time its findings cost, by kind: where each flow's time went.
std::vector<TimeLostByKind> timeLostByFlow(const CaptureAnalysis& analysis);

/// The sum over all kinds.
double totalMs(const TimeLostByKind& lost);

}  // namespace tcpscope
