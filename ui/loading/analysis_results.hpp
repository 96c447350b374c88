#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "investigation/investigation.hpp"
#include "loading/connection_findings.hpp"

namespace tcpscope::ui {

/// An immutable snapshot of an analysis, shared by every model and view: partial while a
/// capture is still loading (connections and findings so far, and during a live capture a
/// snapshot of the packet index), complete at the end: the investigation itself (with the engine's
/// packet index), wrapped, not copied. Models never see the engine itself while the loading thread
/// keeps changing it.
class AnalysisResults {
public:
    /// Copies what the GUI shows of a load in progress. Connections are copied only up to
    /// `maxConnections` (the rest arrive with the complete results).
    /// `detectors`: the thresholds of the analysis (detectorOptions()).
    static std::shared_ptr<const AnalysisResults> partial(const AnalysisCheckpoint& checkpoint, size_t maxConnections,
                                                          const DetectorOptions& detectors = {});
    /// The same with a snapshot of the packet index (a live capture: the packets table, the sequence diagram
    /// and the charts of a connection show while it runs). The index's chunks are shared, not copied.
    /// With `populationHost`, also `populations`: the series the detectors keep about that host so
    /// far (its chart is shown; see DetectorSet::populationsOf).
    static std::shared_ptr<const AnalysisResults> partialWithPackets(const AnalysisCheckpoint& checkpoint,
                                                                     size_t maxConnections,
                                                                     std::optional<IpAddress> populationHost = {},
                                                                     std::vector<HostPopulation> populations = {},
                                                                     const DetectorOptions& detectors = {});
    /// Takes over a finished investigation: its analysis, the strace logs' alignment (what they confirm
    /// of the findings is already in the analysis's enrichments), its incidents, its capture points'
    /// clocks, hops and sightings, the thresholds its findings were judged with.
    static std::shared_ptr<const AnalysisResults> complete(Investigation investigation);
    /// The same for an analysis made without investigate() (tests, a single capture).
    static std::shared_ptr<const AnalysisResults> complete(CaptureAnalysis analysis,
                                                           std::optional<StraceAlignment> alignment = std::nullopt,
                                                           const DetectorOptions& detectors = {},
                                                           std::vector<Incident> incidents = {});

    [[nodiscard]] bool isComplete() const { return investigation_.analysis.engine != nullptr; }
    [[nodiscard]] const ConnectionStore& connections() const {
        return isComplete() ? investigation_.analysis.engine->connections() : connections_;
    }
    [[nodiscard]] const FindingList& findings() const {
        return isComplete() ? investigation_.analysis.findings : findings_;
    }
    /// What strace logs and capture points add to the findings, by finding id: the complete
    /// analysis's (CaptureAnalysis::enrichments), none while loading.
    [[nodiscard]] const FindingEnrichments& enrichments() const {
        return isComplete() ? investigation_.analysis.enrichments : noEnrichments_;
    }
    /// The findings linked into incidents, most severe first (buildIncidents): a complete
    /// investigation's; none while loading or during a live capture.
    [[nodiscard]] const std::vector<Incident>& incidents() const { return investigation_.incidents; }
    [[nodiscard]] const FrameCounters& counters() const {
        return isComplete() ? investigation_.analysis.engine->counters() : counters_;
    }
    /// The packet index: the complete analysis's, a live capture's snapshot, or null.
    [[nodiscard]] const PacketIndex* packets() const {
        return isComplete() ? &investigation_.analysis.engine->packets() : packetsSnapshot_.get();
    }
    /// The detectors' population series: all of a complete analysis, those of populationHost() of
    /// a live snapshot.
    [[nodiscard]] const std::vector<HostPopulation>& populations() const {
        return isComplete() ? investigation_.analysis.populations : populationsSnapshot_;
    }
    /// True if populations() holds the series of `host` (complete results, or a live snapshot made for it).
    [[nodiscard]] bool hasPopulationsOf(const IpAddress& host) const { return isComplete() || populationHost_ == host; }
    /// The complete analysis (packet index, inputs), or null while loading.
    [[nodiscard]] const CaptureAnalysis* analysis() const { return isComplete() ? &investigation_.analysis : nullptr; }
    /// The traced processes' system calls on the capture's axis, or null (no strace log, or loading).
    [[nodiscard]] const StraceAlignment* alignment() const { return investigation_.aligned(); }
    /// Capture time of the first frame (0 before any).
    [[nodiscard]] int64_t firstTsNs() const { return isComplete() ? investigation_.analysis.engine->firstTsNs() : firstTsNs_; }
    [[nodiscard]] int64_t lastTsNs() const { return isComplete() ? investigation_.analysis.engine->lastTsNs() : lastTsNs_; }
    /// What the capture's times count from (the epoch but for captures far from it).
    [[nodiscard]] TimeOrigin timeOrigin() const { return isComplete() ? investigation_.analysis.engine->timeOrigin() : timeOrigin_; }
    /// The detector thresholds the findings were judged with; the views count TIME_WAIT with its
    /// timeWaitSeconds as the detectors did.
    [[nodiscard]] const DetectorOptions& detectorOptions() const { return investigation_.detectors; }
    /// The capture points of the analysis (each one's files, clock and packets, the hops), or null
    /// for captures opened the usual way.
    [[nodiscard]] const CapturePointsSummary* points() const { return investigation_.points ? &*investigation_.points : nullptr; }
    /// Where and when each point saw each frame's segment; null unless there are several points.
    [[nodiscard]] const PointSightings* sightings() const { return investigation_.sightings.get(); }
    /// Per connection: time lost and finding kinds, computed with the snapshot (off the GUI thread).
    [[nodiscard]] const ConnectionFindings& connectionFindings() const { return connectionFindings_; }

private:
    static std::shared_ptr<AnalysisResults> copyOf(const AnalysisCheckpoint& checkpoint, size_t maxConnections,
                                                   const DetectorOptions& detectors);

    Investigation investigation_;  // complete: the investigation; partial: its detectors only
    ConnectionStore connections_;
    FindingList findings_;
    FindingEnrichments noEnrichments_;
    std::shared_ptr<const PacketIndex> packetsSnapshot_;
    std::vector<HostPopulation> populationsSnapshot_;
    std::optional<IpAddress> populationHost_;
    FrameCounters counters_;
    int64_t firstTsNs_ = 0;
    int64_t lastTsNs_ = 0;
    TimeOrigin timeOrigin_;
    ConnectionFindings connectionFindings_;
};

using ResultsPtr = std::shared_ptr<const AnalysisResults>;

}  // namespace tcpscope::ui
