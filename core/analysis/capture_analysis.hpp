#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "detect/detector_options.hpp"
#include "detect/finding_log.hpp"
#include "detect/host_population.hpp"
#include "engine/analysis_engine.hpp"
#include "engine/capture_loader.hpp"
#include "finding/finding.hpp"
#include "finding/finding_enrichment.hpp"

namespace tcpscope {

/// Settings of one analysis: what to read and how to judge it.
struct AnalysisOptions {
    EngineOptions engine;
    DetectorOptions detectors;
    /// Leave each finding's summary, frames, spans and evidence to be written as a report writes it
    /// (CaptureAnalysis::authors), so that they are never all in memory at once: for a caller that
    /// only writes the findings out once, in order (tcpscope-cli's JSON). Off: every finding complete.
    bool describeWhenWritten = false;
};

class DetectorSet;

/// The detectors of an analysis and the log of their findings: the one detector set of every
/// analysis (files, capture points, live capture), kept after the input ended so that they can
/// describe each finding when it is written (AnalysisOptions::describeWhenWritten).
class FindingAuthors {
public:
    FindingAuthors(AnalysisEngine& engine, const DetectorOptions& options);
    ~FindingAuthors();
    FindingAuthors(const FindingAuthors&) = delete;
    FindingAuthors& operator=(const FindingAuthors&) = delete;

    [[nodiscard]] FindingLog& log() { return log_; }
    [[nodiscard]] const FindingLog& log() const { return log_; }
    /// The detectors, which write into log() (a live capture's charts read their population series).
    [[nodiscard]] const DetectorSet& detectors() const { return *detectors_; }
    /// `finding`, one of CaptureAnalysis::findings, complete: itself if it is, otherwise a copy
    /// in `described` with its summary, frames, spans and evidence written. Safe on two threads at once.
    const Finding& complete(const Finding& finding, Finding& described) const;
    /// As complete(), but for its evidence (FindingAuthor::Detail::ButEvidence): for a reader of its
    /// impact, wait ranges, frames, spans or waiting side, which the evidence does not change. A
    /// finding's evidence is the most it costs to describe (a TIME_WAIT host's servers and series).
    const Finding& completeButEvidence(const Finding& finding, Finding& described) const;

private:
    FindingLog log_;
    std::unique_ptr<DetectorSet> detectors_;  // after log_: they write into it
};

/// Everything one analysis of one or more capture files produced: what was read, the engine's
/// results (connections, packet index, counters), and the findings.
struct CaptureAnalysis {
    std::vector<InputSummary> inputs;
    std::unique_ptr<AnalysisEngine> engine;
    FindingList findings;
    /// What strace logs and capture points add to the findings, beside them by finding id (set by
    /// confirmFindingsWithSyscalls and analyzePoints; empty after analyzeCaptures).
    FindingEnrichments enrichments;
    /// TIME_WAIT and ports-in-use series per host, as the detectors counted them (for charts).
    std::vector<HostPopulation> populations;
    /// With AnalysisOptions::describeWhenWritten, the authors that complete `findings` (which hold
    /// then only kind, severity, flow, parties, time and duration) one at a time; otherwise null. Declared
    /// after `engine`, which its detectors read, so that it is destroyed first.
    std::unique_ptr<const FindingAuthors> authors;

    /// `findings[index]` complete (see FindingAuthors::complete): itself without `authors`.
    [[nodiscard]] const Finding& completeFinding(size_t index, Finding& described) const {
        return authors ? authors->complete(findings[index], described) : findings[index];
    }
    /// `findings[index]` complete but for its evidence (FindingAuthors::completeButEvidence).
    [[nodiscard]] const Finding& completeFindingButEvidence(size_t index, Finding& described) const {
        return authors ? authors->completeButEvidence(findings[index], described) : findings[index];
    }
};

/// Partial results, readable only during the call that receives them (on the loading thread).
struct AnalysisCheckpoint {
    const AnalysisEngine& engine;
    const FindingLog& log;

    /// The findings so far, described as they are now. Describing the findings that changed since
    /// the last read costs time, so a receiver that takes no snapshot this time does not call it.
    [[nodiscard]] const FindingStore& findings() const { return log.all(); }
    /// As findings(), with the evidence of the findings changed since left as it was (cheaper:
    /// FindingLog::allButEvidence).
    [[nodiscard]] const FindingStore& findingsButEvidence() const { return log.allButEvidence(); }
};
/// Receives partial results between batches of frames while a load runs (see LoadCheckpoint).
using AnalysisCheckpointFn = std::function<void(const AnalysisCheckpoint& checkpoint)>;

/// Opens and analyses `paths` (merged in time order) with every detector. Throws CaptureError if
/// a file cannot be opened, BpfFilterError if the filter is invalid. `progress`, `stop` and
/// `checkpoint` may be null.
CaptureAnalysis analyzeCaptures(const std::vector<std::string>& paths, const AnalysisOptions& options,
                                LoadProgress* progress = nullptr, const StopToken* stop = nullptr,
                                const AnalysisCheckpointFn& checkpoint = {});

}  // namespace tcpscope
