#include "detect/finding_log.hpp"

#include <numeric>

namespace tcpscope {

uint32_t FindingLog::add(Finding finding) {
    finding.id = static_cast<uint32_t>(findings_.size());
    findings_.push_back(std::move(finding));
    if (hadProvisional_) {
        madeOrder_.push_back(findings_.back().id);
    }
    if (listener_) {
        listener_(findings_.back(), true);
    }
    return findings_.back().id;
}

uint32_t FindingLog::addProvisional(Finding finding) {
    if (!hadProvisional_) {
        hadProvisional_ = true;
        madeOrder_.resize(findings_.size());
        std::iota(madeOrder_.begin(), madeOrder_.end(), 0U);
    }
    finding.id = static_cast<uint32_t>(findings_.size());
    finding.provisional = true;
    finding.ongoing = true;
    findings_.push_back(std::move(finding));
    if (listener_) {
        listener_(findings_.back(), true);
    }
    return findings_.back().id;
}

void FindingLog::confirm(uint32_t id, Finding finding) {
    finding.id = id;
    finding.provisional = false;
    finding.withdrawn = false;
    findings_[id] = std::move(finding);
    madeOrder_.push_back(id);
}

void FindingLog::withdraw(uint32_t id) {
    Finding& finding = findings_[id];
    finding.provisional = false;
    finding.ongoing = false;
    finding.withdrawn = true;
    changed(id);
}

std::vector<Finding> FindingLog::release() {
    if (!hadProvisional_) {
        return std::move(findings_);
    }
    for (Finding& finding : findings_) {
        if (finding.provisional) {
            withdraw(finding.id);
        }
    }
    std::vector<Finding> released;
    released.reserve(madeOrder_.size());
    for (const uint32_t id : madeOrder_) {  // never a withdrawn one: only provisional ones are withdrawn
        released.push_back(std::move(findings_[id]));
        released.back().id = static_cast<uint32_t>(released.size() - 1);
    }
    findings_.clear();
    madeOrder_.clear();
    return released;
}

void FindingLog::changed(uint32_t id) {
    if (listener_) {
        listener_(findings_[id], false);
    }
}

}  // namespace tcpscope
