#include "analysis/capture_analysis.hpp"

#include "analysis/analysis_release.hpp"
#include "detect/detector_set.hpp"

namespace tcpscope {

FindingAuthors::FindingAuthors(AnalysisEngine& engine, const DetectorOptions& options)
    : detectors_(std::make_unique<DetectorSet>(engine, options, log_)) {}

FindingAuthors::~FindingAuthors() = default;

const Finding& FindingAuthors::complete(const Finding& finding, Finding& described) const {
    if (!log_.describesLater(finding)) {
        return finding;
    }
    described = finding;
    log_.describeReleased(described);
    return described;
}

const Finding& FindingAuthors::completeButEvidence(const Finding& finding, Finding& described) const {
    if (!log_.describesLater(finding)) {
        return finding;
    }
    described = finding;
    log_.describeReleased(described, FindingAuthor::Detail::ButEvidence);
    return described;
}

CaptureAnalysis analyzeCaptures(const std::vector<std::string>& paths, const AnalysisOptions& options,
                                LoadProgress* progress, const StopToken* stop,
                                const AnalysisCheckpointFn& checkpoint) {
    CaptureAnalysis analysis;
    analysis.engine = std::make_unique<AnalysisEngine>(options.engine);
    auto authors = std::make_unique<FindingAuthors>(*analysis.engine, options.detectors);
    FindingLog& log = authors->log();
    LoadCheckpoint engineCheckpoint;
    if (checkpoint) {
        engineCheckpoint = [&](const AnalysisEngine& engine) { checkpoint(AnalysisCheckpoint{engine, log}); };
    }
    analysis.inputs = loadCaptures(paths, *analysis.engine, progress, stop, engineCheckpoint);
    releaseFindings(analysis, std::move(authors), options);
    return analysis;
}

void releaseFindings(CaptureAnalysis& analysis, std::unique_ptr<FindingAuthors> authors,
                     const AnalysisOptions& options) {
    FindingLog& log = authors->log();
    analysis.engine->clearObservers();
    analysis.populations = log.releasePopulations();
    if (options.describeWhenWritten) {
        analysis.findings = log.releaseMeasured();
        analysis.authors = std::move(authors);
    } else {
        analysis.findings = log.release();
    }
}

}  // namespace tcpscope
