#pragma once
// One detector attached to the real engine, fed with recorded captures by the real loader, with
// the engine's options (a live capture's retirement among them).
#include <memory>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "detect/finding_log.hpp"
#include "report/json_report.hpp"

namespace tcpscope::test {

template <typename DetectorType>
struct DetectorRun {
    DetectorRun(const std::vector<std::string>& paths, const AnalysisOptions& options)
        : detectorOptions(options.detectors),
          detector(*(analysis.engine = std::make_unique<AnalysisEngine>(options.engine)), detectorOptions, log) {
        analysis.engine->addObserver(&detector);
        analysis.inputs = loadCaptures(paths, *analysis.engine);
        analysis.engine->clearObservers();
        analysis.findings = log.release();
    }

    /// The findings as the JSON report writes them.
    [[nodiscard]] Json findingsJson() const { return analysisReportJson(analysis)["findings"]; }
    [[nodiscard]] const AnalysisEngine& engine() const { return *analysis.engine; }

    CaptureAnalysis analysis;
    DetectorOptions detectorOptions;
    FindingLog log;
    DetectorType detector;
};

}  // namespace tcpscope::test
