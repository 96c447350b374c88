#pragma once
#include <memory>

#include "analysis/capture_analysis.hpp"

namespace tcpscope {

/// The end of an analysis once every packet has gone through `analysis.engine`: the detectors stop
/// listening, the tracking state is freed, and the populations and findings are taken out of the
/// authors' log: described now, or, with options.describeWhenWritten, measured now and described
/// when written (the authors then stay with the analysis). Shared by analyzeCaptures and
/// analyzePoints, which feed the engine differently.
void releaseFindings(CaptureAnalysis& analysis, std::unique_ptr<FindingAuthors> authors,
                     const AnalysisOptions& options);

}  // namespace tcpscope
