#include "detect/capture_joins.hpp"

#include <algorithm>
#include <iterator>

namespace tcpscope {

bool CaptureJoins::largeStepBefore(const SegmentEvent& event) const {
    const int64_t stepNs = event.tsNs - lastTsNs_;
    return any_ && (stepNs >= kJoinGapNs || isJump(stepNs)) && steps_.size() < kListed && looked_ < kLooked;
}

void CaptureJoins::addStep(const SegmentEvent& event, uint32_t before, uint32_t waiting) {
    ++looked_;
    const int64_t stepNs = event.tsNs - lastTsNs_;
    if (waiting > 0 || isJump(stepNs)) {  // a quiet time, however long, with nothing waiting is no join
        steps_.push_back(Step{event.frame, stepNs, before, waiting, false});
    }
}

void CaptureJoins::onSegment(const SegmentEvent& event) {
    any_ = true;
    lastTsNs_ = event.tsNs;
    if (steps_.empty()) {
        return;
    }
    // A connection begun before a step that shows after it (this segment's, or a later one) spans
    // the step: it is no join, and is kept only as a clock jump.
    for (Step& step : steps_) {
        step.spanned = step.spanned || event.connection.firstFrame < step.frame;
    }
    std::erase_if(steps_, [](const Step& step) { return step.spanned && !isJump(step.stepNs); });
}

std::vector<CaptureJoins::Step> CaptureJoins::joins() const {
    std::vector<Step> found;
    for (const Step& step : steps_) {
        if (step.stepNs >= kJoinGapNs && !step.spanned && step.waiting > 0) {
            found.push_back(step);
        }
    }
    return found;
}

std::vector<CaptureJoins::Step> CaptureJoins::clockJumps() const {
    std::vector<Step> found;
    std::copy_if(steps_.begin(), steps_.end(), std::back_inserter(found),
                 [](const Step& step) { return isJump(step.stepNs); });
    return found;
}

}  // namespace tcpscope
