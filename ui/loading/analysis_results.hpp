#pragma once
#include <memory>
#include <optional>
#include <vector>

#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "incident/incident.hpp"
#include "loading/connection_findings.hpp"
#include "points/point_analysis.hpp"

namespace tcpscope::ui {

/// An immutable snapshot of an analysis, shared by every model and view: partial while a
/// capture is still loading (connections and findings so far, and during a live capture a
/// snapshot of the packet index), complete at the end (with the engine's packet index). Models
/// never see the engine itself, which the loading thread keeps changing.
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
    /// Takes over a finished analysis and, when strace logs were given, their alignment (what they
    /// confirm of the findings is already in the analysis's enrichments).
    /// `detectors`: the thresholds the analysis ran with (AnalysisOptions::detectors).
    /// `incidents`: its findings linked into incidents (Investigation::incidents).
    static std::shared_ptr<const AnalysisResults> complete(CaptureAnalysis analysis,
                                                           std::optional<StraceAlignment> alignment = std::nullopt,
                                                           const DetectorOptions& detectors = {},
                                                           std::vector<Incident> incidents = {});

    /// The same for an analysis of several capture points: its clocks, hops and sightings are kept.
    static std::shared_ptr<const AnalysisResults> completePoints(
        PointsAnalysis analysis, std::optional<StraceAlignment> alignment = std::nullopt,
        const DetectorOptions& detectors = {}, std::vector<Incident> incidents = {});

    [[nodiscard]] bool isComplete() const { return analysis_.engine != nullptr; }
    [[nodiscard]] const ConnectionStore& connections() const {
        return isComplete() ? analysis_.engine->connections() : connections_;
    }
    [[nodiscard]] const std::vector<Finding>& findings() const {
        return isComplete() ? analysis_.findings : findings_;
    }
    /// What strace logs and capture points add to the findings, by finding id: the complete
    /// analysis's (CaptureAnalysis::enrichments), none while loading.
    [[nodiscard]] const FindingEnrichments& enrichments() const {
        return isComplete() ? analysis_.enrichments : noEnrichments_;
    }
    /// The findings linked into incidents, most severe first (buildIncidents): a complete
    /// investigation's; none while loading or during a live capture.
    [[nodiscard]] const std::vector<Incident>& incidents() const { return incidents_; }
    [[nodiscard]] const FrameCounters& counters() const {
        return isComplete() ? analysis_.engine->counters() : counters_;
    }
    /// The packet index: the complete analysis's, a live capture's snapshot, or null.
    [[nodiscard]] const PacketIndex* packets() const {
        return isComplete() ? &analysis_.engine->packets() : packetsSnapshot_.get();
    }
    /// The detectors' population series: all of a complete analysis, those of populationHost() of
    /// a live snapshot.
    [[nodiscard]] const std::vector<HostPopulation>& populations() const {
        return isComplete() ? analysis_.populations : populationsSnapshot_;
    }
    /// True if populations() holds the series of `host` (complete results, or a live snapshot made for it).
    [[nodiscard]] bool hasPopulationsOf(const IpAddress& host) const { return isComplete() || populationHost_ == host; }
    /// The complete analysis (packet index, inputs), or null while loading.
    [[nodiscard]] const CaptureAnalysis* analysis() const { return isComplete() ? &analysis_ : nullptr; }
    /// The traced processes' system calls on the capture's axis, or null (no strace log, or loading).
    [[nodiscard]] const StraceAlignment* alignment() const { return alignment_ ? &*alignment_ : nullptr; }
    /// Capture time of the first frame (0 before any).
    [[nodiscard]] int64_t firstTsNs() const { return isComplete() ? analysis_.engine->firstTsNs() : firstTsNs_; }
    [[nodiscard]] int64_t lastTsNs() const { return isComplete() ? analysis_.engine->lastTsNs() : lastTsNs_; }
    /// What the capture's times count from (the epoch but for captures far from it).
    [[nodiscard]] TimeOrigin timeOrigin() const { return isComplete() ? analysis_.engine->timeOrigin() : timeOrigin_; }
    /// The detector thresholds the findings were judged with; the views count TIME_WAIT with its
    /// timeWaitSeconds as the detectors did.
    [[nodiscard]] const DetectorOptions& detectorOptions() const { return detectors_; }
    /// The capture points of the analysis (each one's files, clock and packets, the hops), or null
    /// for captures opened the usual way.
    [[nodiscard]] const CapturePointsSummary* points() const { return points_ ? &*points_ : nullptr; }
    /// Where and when each point saw each frame's segment; null unless there are several points.
    [[nodiscard]] const PointSightings* sightings() const { return sightings_.get(); }
    /// Per connection: time lost and finding kinds, computed with the snapshot (off the GUI thread).
    [[nodiscard]] const ConnectionFindings& connectionFindings() const { return connectionFindings_; }

private:
    static std::shared_ptr<AnalysisResults> copyOf(const AnalysisCheckpoint& checkpoint, size_t maxConnections,
                                                   const DetectorOptions& detectors);

    CaptureAnalysis analysis_;
    std::optional<StraceAlignment> alignment_;
    ConnectionStore connections_;
    std::vector<Finding> findings_;
    FindingEnrichments noEnrichments_;
    std::vector<Incident> incidents_;
    std::shared_ptr<const PacketIndex> packetsSnapshot_;
    std::vector<HostPopulation> populationsSnapshot_;
    std::optional<IpAddress> populationHost_;
    FrameCounters counters_;
    int64_t firstTsNs_ = 0;
    int64_t lastTsNs_ = 0;
    TimeOrigin timeOrigin_;
    ConnectionFindings connectionFindings_;
    DetectorOptions detectors_;
    std::optional<CapturePointsSummary> points_;
    std::shared_ptr<const PointSightings> sightings_;
};

using ResultsPtr = std::shared_ptr<const AnalysisResults>;

}  // namespace tcpscope::ui
