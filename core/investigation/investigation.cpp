#include "investigation/investigation.hpp"

#include "align/stall_confirmation.hpp"
#include "capture/capture_error.hpp"

namespace tcpscope {

Investigation investigate(const InvestigationInputs& inputs, LoadProgress* progress, const StopToken* stop,
                          const AnalysisCheckpointFn& checkpoint) {
    AnalysisOptions options = inputs.options;
    if (!inputs.straceLogs.empty()) {
        options.engine.keepPacketIndex = true;
        options.describeWhenWritten = false;
    }
    Investigation investigation;
    if (inputs.points.empty()) {
        investigation.analysis = analyzeCaptures(inputs.captures, options, progress, stop, checkpoint);
    } else {
        PointsAnalysis points = analyzePoints(inputs.points, options, progress, stop);
        investigation.analysis = std::move(points.analysis);
        investigation.points = std::move(points.summary);
        investigation.sightings = std::move(points.sightings);
    }
    if (inputs.straceLogs.empty() || (stop != nullptr && stop->stopRequested())) {
        return investigation;
    }
    try {
        investigation.alignment = loadStraceLogs(inputs.straceLogs, investigation.analysis, inputs.straceClock);
    } catch (const CaptureError& error) {
        investigation.straceProblem = error.what();
        return investigation;
    }
    if (std::optional<StraceMismatch> mismatch =
            findStraceMismatch(*investigation.alignment, *investigation.analysis.engine)) {
        investigation.straceMismatch = std::move(mismatch);
        investigation.alignment.reset();
        return investigation;
    }
    confirmFindingsWithSyscalls(investigation.analysis, *investigation.alignment);
    return investigation;
}

}  // namespace tcpscope
