#include "detect/finding_log.hpp"

namespace tcpscope {

uint32_t FindingLog::add(Finding finding) {
    finding.id = static_cast<uint32_t>(findings_.size());
    findings_.push_back(std::move(finding));
    if (listener_) {
        listener_(findings_.back(), true);
    }
    return findings_.back().id;
}

void FindingLog::changed(uint32_t id) {
    if (listener_) {
        listener_(findings_[id], false);
    }
}

}  // namespace tcpscope
