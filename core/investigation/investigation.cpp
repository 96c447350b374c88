#include "investigation/investigation.hpp"

#include "align/stall_confirmation.hpp"
#include "capture/capture_error.hpp"
#include "incident/incident_builder.hpp"
#include "recorded/recorded_calls_reader.hpp"
#include "recorded/recorded_strace_log.hpp"

namespace tcpscope {
namespace {

// The recorded calls of one capture file as a log to align.
AlignedLog recordedCallLog(const RecordedCalls& calls, const std::string& path) {
    AlignedLog log;
    log.files = {path};
    log.log = straceLogOfRecordedCalls(calls, path);
    if (calls.hasSummary) {  // a recording cut short has no count
        log.lostCalls = calls.lostEvents;
    }
    return log;
}

// The system calls `tcpscope-cli record` wrote into the captures, one log per file that has any.
std::vector<AlignedLog> recordedCallLogs(const std::vector<std::string>& captures) {
    std::vector<AlignedLog> logs;
    for (const std::string& path : captures) {
        std::optional<RecordedCalls> calls = readRecordedCalls(path);
        if (calls && !calls->calls.empty()) {
            logs.push_back(recordedCallLog(*calls, path));
        }
    }
    return logs;
}

// Calls recorded with the capture, on its clock: no fitting.
StraceAlignment alignRecordedLogs(std::vector<AlignedLog> logs, const AnalysisEngine& engine) {
    StraceClockOptions exactClock;
    exactClock.offsetMs = 0.0;
    return alignStraceLogs(std::move(logs), engine, exactClock);
}

// Aligns calls recorded with the capture, unless they explain none of its packets.
void alignRecordedCalls(Investigation& investigation, std::vector<AlignedLog> logs) {
    investigation.alignment = alignRecordedLogs(std::move(logs), *investigation.analysis.engine);
}

// What the aligned calls confirm or refute of the findings; calls that explain none of the packets
// (a process whose connections the capture filter left out) leave the capture's report as it is.
void confirmWithAlignment(Investigation& investigation, bool recorded) {
    if (!investigation.alignment) {
        return;
    }
    if (std::optional<StraceMismatch> mismatch =
            findStraceMismatch(*investigation.alignment, *investigation.analysis.engine)) {
        if (recorded) {
            investigation.recordedCallsUnused = mismatch->reason;
        } else {
            investigation.straceMismatch = std::move(mismatch);
        }
        investigation.alignment.reset();
    } else {
        confirmFindingsWithSyscalls(investigation.analysis, *investigation.alignment);
    }
}

}  // namespace

Investigation investigate(const InvestigationInputs& inputs, LoadProgress* progress, const StopToken* stop,
                          const AnalysisCheckpointFn& checkpoint) {
    AnalysisOptions options = inputs.options;
    // Recorded calls stand in for strace logs when none are given; their clock is the capture's.
    std::vector<AlignedLog> recordedLogs;
    if (inputs.straceLogs.empty()) {
        recordedLogs = recordedCallLogs(inputs.captures);
    }
    if (!inputs.straceLogs.empty() || !recordedLogs.empty()) {
        prepareForRecordedCalls(options);
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
    } else if (!recordedLogs.empty() && !stopped) {
        alignRecordedCalls(investigation, std::move(recordedLogs));
    }
    confirmWithAlignment(investigation, inputs.straceLogs.empty());
    if (!stopped) {
        const SameHost sameHost = investigation.sightings ? investigation.sightings->sameHost() : SameHost();
        investigation.incidents = buildIncidents(investigation.analysis, options.detectors, sameHost);
    }
    return investigation;
}

void prepareForRecordedCalls(AnalysisOptions& options) {
    options.engine.keepPacketIndex = true;
    options.describeWhenWritten = false;
}

std::optional<StraceAlignment> alignCallsRecordedBeside(const AnalysisEngine& engine, const RecordedCalls& calls,
                                                        const std::string& name, std::string* unused) {
    if (calls.calls.empty()) {
        return std::nullopt;
    }
    StraceAlignment alignment = alignRecordedLogs({recordedCallLog(calls, name)}, engine);
    if (std::optional<StraceMismatch> mismatch = findStraceMismatch(alignment, engine)) {
        if (unused != nullptr) {
            *unused = std::move(mismatch->reason);
        }
        return std::nullopt;
    }
    return alignment;
}

Investigation investigateRecordedCalls(CaptureAnalysis analysis, const DetectorOptions& detectors,
                                       const RecordedCalls& calls, const std::string& name) {
    Investigation investigation;
    investigation.analysis = std::move(analysis);
    investigation.detectors = detectors;
    if (!calls.calls.empty()) {
        alignRecordedCalls(investigation, {recordedCallLog(calls, name)});
        confirmWithAlignment(investigation, true);
    }
    investigation.incidents = buildIncidents(investigation.analysis, detectors, SameHost());
    return investigation;
}

}  // namespace tcpscope
