#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "align/strace_fit.hpp"
#include "analysis/capture_analysis.hpp"
#include "incident/incident.hpp"
#include "points/capture_point.hpp"
#include "points/point_analysis.hpp"
#include "recorded/recorded_call.hpp"

namespace tcpscope {

/// What one investigation reads, and how it judges it: the capture files of one capture (merged in
/// time order) or several capture points of one incident, the strace logs of processes on them.
struct InvestigationInputs {
    /// Files read as one capture. Empty when `points` are given.
    std::vector<std::string> captures;
    /// Several capture points (analyzePoints): each connection analysed once, from one point.
    std::vector<CapturePoint> points;
    std::vector<std::string> straceLogs;
    StraceClockOptions straceClock;
    /// With strace logs, the packet index is kept and every finding is described at once, whatever
    /// these say: the logs are aligned on the packets, and the confirmation adds to the findings.
    AnalysisOptions options;
};

/// Everything one investigation produced: the one product that tcpscope-cli, the GUI (which wraps it:
/// ui::AnalysisResults) and the report read.
struct Investigation {
    CaptureAnalysis analysis;
    /// The detector thresholds the findings were judged with (InvestigationInputs::options.detectors).
    DetectorOptions detectors;
    /// The strace logs' calls on the capture's clock, tied to its connections; what they confirm or
    /// refute of the findings is beside them (analysis.enrichments: confirmFindingsWithSyscalls).
    /// Empty without logs, when a log could not be read (straceProblem), or when the investigation
    /// was stopped before them.
    std::optional<StraceAlignment> alignment;
    /// "FILE: reason" when a strace log could not be read; the analysis stands without the calls.
    std::string straceProblem;
    /// A strace log that was read but does not fit the capture (no strace log at all, no call in
    /// the capture's time, no socket tied to its connections): the analysis stands without the
    /// calls (`alignment` is empty), and the clients say it as an error.
    std::optional<StraceMismatch> straceMismatch;
    /// Why the system calls recorded in the capture (tcpscope-cli record) were left out: they do
    /// not fit its packets (straceMismatch's reasons). Not an error: the capture's report stands.
    std::string recordedCallsUnused;
    /// With capture points: each point's clock and what it saw, and the hops between them.
    std::optional<CapturePointsSummary> points;
    /// With several points: where each segment was seen.
    std::shared_ptr<const PointSightings> sightings;
    /// The findings linked into incidents (buildIncidents), once the strace logs confirmed them; empty
    /// when the investigation was stopped.
    std::vector<Incident> incidents;

    /// The alignment, or null.
    [[nodiscard]] const StraceAlignment* aligned() const { return alignment ? &*alignment : nullptr; }
};

/// The one way an investigation runs, for tcpscope-cli and the GUI's loader: analyses the captures
/// (or the capture points) with every detector, then parses the strace logs, puts their calls on
/// the capture's clock and confirms the findings with them. Throws CaptureError if a capture cannot
/// be opened or is not a capture, BpfFilterError if the filter is invalid; a strace log that cannot
/// be read is not an error of the investigation (straceProblem), nor is one that does not fit the
/// capture (straceMismatch). `progress`, `stop` and `checkpoint`
/// (each may be null) follow the loading; capture points give no checkpoint (their clocks are
/// fitted before the first frame is analysed). Once a stop is requested, the strace logs are left unread.
Investigation investigate(const InvestigationInputs& inputs, LoadProgress* progress = nullptr,
                          const StopToken* stop = nullptr, const AnalysisCheckpointFn& checkpoint = {});

/// What an analysis needs to be lined up with system calls afterwards (the packet index kept,
/// each finding described at once): investigate() does it for strace logs and recorded files; a
/// live capture with --syscalls does it before it starts.
void prepareForRecordedCalls(AnalysisOptions& options);

/// Calls recorded beside a capture put on its clock and tied to its connections, as
/// investigateRecordedCalls() puts them (on the engine as it is now: a live capture's, between two
/// batches of packets); nullopt when there is none, or when they explain none of its packets (why
/// in `unused`, if given).
std::optional<StraceAlignment> alignCallsRecordedBeside(const AnalysisEngine& engine, const RecordedCalls& calls,
                                                        const std::string& name, std::string* unused = nullptr);

/// A finished analysis (a live capture's, prepared with prepareForRecordedCalls) lined up with
/// the system calls recorded beside it, as investigate() lines up the calls recorded in a file
/// (its `name`): the same alignment, verdicts and incidents, so the live report is the report of
/// the written file.
Investigation investigateRecordedCalls(CaptureAnalysis analysis, const DetectorOptions& detectors,
                                       const RecordedCalls& calls, const std::string& name);

}  // namespace tcpscope
