#include "detect/finding_log.hpp"

#include <bit>

namespace tcpscope {

uint32_t FindingLog::add(Finding finding, const FindingAuthor* author, uint32_t record) {
    const auto id = static_cast<uint32_t>(findings_.size());
    finding.id = id;
    findings_.push_back(std::move(finding));
    authors_.push_back(Authorship{author, record, 0, false});
    if (author != nullptr) {
        authors_[id].stale = true;
        stale_.push_back(id);
    }
    if (listener_) {
        listener_(findings_.back(), true);
    }
    return id;
}

void FindingLog::changed(uint32_t id) {
    Authorship& authorship = authors_[id];
    if (authorship.author != nullptr) {
        ++authorship.changes;
        if (!authorship.stale) {
            authorship.stale = true;
            stale_.push_back(id);
        }
        // A listener sees each finding described at its first change, then ever more rarely
        // (describing a growing finding at every change would cost its size each time).
        if (listener_ && std::has_single_bit(authorship.changes)) {
            describe(id);
        }
    }
    if (listener_) {
        listener_(findings_[id], false);
    }
}

void FindingLog::describe(uint32_t id) const {
    Authorship& authorship = authors_[id];
    authorship.stale = false;
    authorship.author->describe(authorship.record, findings_[id]);
}

void FindingLog::describeStale() const {
    for (const uint32_t id : stale_) {
        if (authors_[id].stale) {
            describe(id);
        }
    }
    stale_.clear();
}

const std::vector<Finding>& FindingLog::all() const {
    describeStale();
    return findings_;
}

std::vector<Finding> FindingLog::release() {
    describeStale();
    authors_.clear();
    return std::move(findings_);
}

}  // namespace tcpscope
