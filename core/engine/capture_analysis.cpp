#include "engine/capture_analysis.hpp"

namespace tcpscope {

CaptureAnalysis analyzeCaptures(const std::vector<std::string>& paths, const EngineOptions& options,
                                LoadProgress* progress, const StopToken* stop) {
    CaptureAnalysis analysis;
    analysis.engine = std::make_unique<AnalysisEngine>(options);
    analysis.inputs = loadCaptures(paths, *analysis.engine, progress, stop);
    return analysis;
}

}  // namespace tcpscope
