#pragma once
#include <algorithm>
#include <cstdint>

#include "detect/detector_options.hpp"
#include "detect/finding_log.hpp"
#include "engine/analysis_engine.hpp"
#include "engine/segment_observer.hpp"

namespace tcpscope {

/// A connection's life so far, at least 1 ns (the share of it a finding cost is taken of it): of
/// its record or of a segment's snapshot of it.
template <typename Record>
int64_t lifeOf(const Record& connection) {
    return std::max<int64_t>(connection.lastTsNs - connection.firstTsNs, 1);
}

/// Whether `connection` never became one: no handshake completed and no data either way (an
/// unanswered or refused SYN, a scanner's probe).
inline bool onlyAnAttempt(const Connection& connection) {
    return connection.handshakeAckTsNs == kNoTime && connection.from(Side::Client).payloadBytes == 0 &&
           connection.from(Side::Server).payloadBytes == 0;
}

/// Base of every detector: sees each analysed segment (it is a SegmentObserver: DetectorSet calls
/// it directly, a test may register one alone with the engine), may read the engine's results, and
/// writes findings into the log as soon as it is sure of them, so it runs the same on a file and on
/// a live capture.
class Detector : public SegmentObserver {
public:
    Detector(const AnalysisEngine& engine, const DetectorOptions& options, FindingLog& log)
        : engine_(engine), options_(options), log_(log) {}

    /// Appends the population series this detector keeps about `host` as they are now, as
    /// onEnd() will hand them out (a live capture's host chart; the analysis is not changed).
    virtual void addPopulationsOf(const IpAddress& /*host*/, std::vector<HostPopulation>& /*populations*/) const {}
    /// Every host's population series, without copying them (a live capture's series records,
    /// once a second: a copy of each would cost more than the records).
    virtual void visitAllPopulations(const PopulationVisitor& /*visit*/) const {}

protected:
    /// The engine's results; in onSegment(), only what SegmentObserver allows (the engine may be
    /// tracking later segments on another thread).
    [[nodiscard]] const AnalysisEngine& engine() const { return engine_; }
    [[nodiscard]] const DetectorOptions& options() const { return options_; }
    [[nodiscard]] FindingLog& log() { return log_; }

private:
    const AnalysisEngine& engine_;
    const DetectorOptions& options_;
    FindingLog& log_;
};

}  // namespace tcpscope
