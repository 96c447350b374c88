#include "detect/detector_set.hpp"

#include "detect/delayed_ack_detector.hpp"

namespace tcpscope {

DetectorSet::DetectorSet(AnalysisEngine& engine, const DetectorOptions& options, FindingLog& log)
    : options_(options) {
    detectors_.push_back(std::make_unique<DelayedAckDetector>(engine, options_, log));
    for (const auto& detector : detectors_) {
        engine.addObserver(detector.get());
    }
}

}  // namespace tcpscope
