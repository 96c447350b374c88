#include "analysis/capture_analysis.hpp"

#include "detect/detector_set.hpp"

namespace tcpscope {

CaptureAnalysis analyzeCaptures(const std::vector<std::string>& paths, const AnalysisOptions& options,
                                LoadProgress* progress, const StopToken* stop,
                                const AnalysisCheckpointFn& checkpoint) {
    CaptureAnalysis analysis;
    analysis.engine = std::make_unique<AnalysisEngine>(options.engine);
    FindingLog log;
    const DetectorSet detectors(*analysis.engine, options.detectors, log);
    LoadCheckpoint engineCheckpoint;
    if (checkpoint) {
        engineCheckpoint = [&](const AnalysisEngine& engine) { checkpoint(AnalysisCheckpoint{engine, log}); };
    }
    analysis.inputs = loadCaptures(paths, *analysis.engine, progress, stop, engineCheckpoint);
    analysis.engine->clearObservers();
    analysis.engine->releaseTracking();
    analysis.findings = log.release();
    analysis.populations = log.releasePopulations();
    return analysis;
}

}  // namespace tcpscope
