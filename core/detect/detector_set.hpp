#pragma once
#include <memory>
#include <vector>

#include "detect/detector.hpp"

namespace tcpscope {

/// Every detector, built with one set of options and attached to one engine. Findings go to
/// `log` as they are made. The set is the engine's one observer: it hands each segment to the
/// detectors by direct calls (no virtual call per detector per packet).
class DetectorSet {
public:
    DetectorSet(AnalysisEngine& engine, const DetectorOptions& options, FindingLog& log);
    ~DetectorSet();
    DetectorSet(const DetectorSet&) = delete;
    DetectorSet& operator=(const DetectorSet&) = delete;

    /// Every detector's population series about `host` as they are now (copies).
    [[nodiscard]] std::vector<HostPopulation> populationsOf(const IpAddress& host) const;
    /// Every detector's population series about every host, as they are now (no copies).
    void visitAllPopulations(const PopulationVisitor& visit) const;

private:
    struct Detectors;

    DetectorOptions options_;
    std::unique_ptr<Detectors> detectors_;  // the observer the engine calls (not const when the set is)
};

}  // namespace tcpscope
