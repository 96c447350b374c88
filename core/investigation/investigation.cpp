#include "investigation/investigation.hpp"

#include "align/stall_confirmation.hpp"
#include "capture/capture_error.hpp"
#include "incident/incident_builder.hpp"

namespace tcpscope {

Investigation investigate(const InvestigationInputs& inputs, LoadProgress* progress, const StopToken* stop,
                          const AnalysisCheckpointFn& checkpoint) {
    AnalysisOptions options = inputs.options;
    if (!inputs.straceLogs.empty()) {
        options.engine.keepPacketIndex = true;
        options.describeWhenWritten = false;
    }
    Investigation investigation;
    investigation.detectors = options.detectors;
    if (inputs.points.empty()) {
        investigation.analysis = analyzeCaptures(inputs.captures, options, progress, stop, checkpoint);
    } else {
        PointsAnalysis points = analyzePoints(inputs.points, options, progress, stop);
        investigation.analysis = std::move(points.analysis);
        investigation.points = std::move(points.summary);
        investigation.sightings = std::move(points.sightings);
    }
    const bool stopped = stop != nullptr && stop->stopRequested();
    if (!inputs.straceLogs.empty() && !stopped) {
        try {
            investigation.alignment = loadStraceLogs(inputs.straceLogs, investigation.analysis, inputs.straceClock);
        } catch (const CaptureError& error) {
            investigation.straceProblem = error.what();
        }
    }
    if (investigation.alignment) {
        if (std::optional<StraceMismatch> mismatch =
                findStraceMismatch(*investigation.alignment, *investigation.analysis.engine)) {
            investigation.straceMismatch = std::move(mismatch);
            investigation.alignment.reset();
        } else {
            confirmFindingsWithSyscalls(investigation.analysis, *investigation.alignment);
        }
    }
    if (!stopped) {
        const SameHost sameHost = investigation.sightings ? investigation.sightings->sameHost() : SameHost();
        investigation.incidents = buildIncidents(investigation.analysis, options.detectors, sameHost);
    }
    return investigation;
}

}  // namespace tcpscope
