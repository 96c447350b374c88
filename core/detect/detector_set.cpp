#include "detect/detector_set.hpp"

#include "detect/delayed_ack_detector.hpp"
#include "detect/port_exhaustion_detector.hpp"
#include "detect/port_reuse_detector.hpp"
#include "detect/retransmission_stall_detector.hpp"
#include "detect/syn_backlog_detector.hpp"
#include "detect/time_wait_detector.hpp"
#include "detect/zero_window_stall_detector.hpp"

namespace tcpscope {

DetectorSet::DetectorSet(AnalysisEngine& engine, const DetectorOptions& options, FindingLog& log)
    : options_(options) {
    detectors_.push_back(std::make_unique<DelayedAckDetector>(engine, options_, log));
    detectors_.push_back(std::make_unique<PortReuseDetector>(engine, options_, log));
    detectors_.push_back(std::make_unique<TimeWaitDetector>(engine, options_, log));
    detectors_.push_back(std::make_unique<PortExhaustionDetector>(engine, options_, log));
    detectors_.push_back(std::make_unique<SynBacklogDetector>(engine, options_, log));
    detectors_.push_back(std::make_unique<RetransmissionStallDetector>(engine, options_, log));
    detectors_.push_back(std::make_unique<ZeroWindowStallDetector>(engine, options_, log));
    for (const auto& detector : detectors_) {
        engine.addObserver(detector.get());
    }
}

std::vector<HostPopulation> DetectorSet::populationsOf(const IpAddress& host) const {
    std::vector<HostPopulation> populations;
    for (const auto& detector : detectors_) {
        detector->addPopulationsOf(host, populations);
    }
    return populations;
}

}  // namespace tcpscope
