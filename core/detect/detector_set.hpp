#pragma once
#include <memory>
#include <vector>

#include "detect/detector.hpp"

namespace tcpscope {

/// Every detector, built with one set of options and attached to one engine. Findings go to
/// `log` as they are made.
class DetectorSet {
public:
    DetectorSet(AnalysisEngine& engine, const DetectorOptions& options, FindingLog& log);

    [[nodiscard]] size_t size() const { return detectors_.size(); }
    /// Every detector's population series about `host` as they are now (copies).
    [[nodiscard]] std::vector<HostPopulation> populationsOf(const IpAddress& host) const;

private:
    DetectorOptions options_;
    std::vector<std::unique_ptr<Detector>> detectors_;
};

}  // namespace tcpscope
