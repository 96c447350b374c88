#include "detect/finding_log.hpp"

#include <atomic>
#include <bit>
#include <future>
#include <numeric>
#include <stdexcept>

#include "engine/worker_threads.hpp"

namespace tcpscope {

uint32_t FindingLog::add(Finding finding, const FindingAuthor* author, uint32_t record) {
    const auto id = static_cast<uint32_t>(findings_.size());
    finding.id = id;
    Finding& stored = findings_.append() = std::move(finding);
    authors_.append(Authorship{.author = author, .record = record});
    if (author != nullptr) {
        authors_[id].stale = true;
        stale_.push_back(id);
        holdUndescribed(stored);
    }
    if (hadProvisional_) {
        madeOrder_.push_back(id);
    }
    if (listener_) {
        listener_(stored, true);
    }
    return id;
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
    Finding& stored = findings_.append() = std::move(finding);
    authors_.append(Authorship{});
    if (listener_) {
        listener_(stored, true);
    }
    return stored.id;
}

void FindingLog::confirm(uint32_t id, Finding finding, const FindingAuthor* author, uint32_t record) {
    finding.id = id;
    finding.provisional = false;
    finding.withdrawn = false;
    findings_[id] = std::move(finding);
    authors_[id] = Authorship{.author = author, .record = record};
    if (author != nullptr) {
        authors_[id].stale = true;
        stale_.push_back(id);
        holdUndescribed(findings_[id]);
    }
    madeOrder_.push_back(id);
}

void FindingLog::withdraw(uint32_t id) {
    Finding& finding = findings_[id];
    finding.provisional = false;
    finding.ongoing = false;
    finding.withdrawn = true;
    changed(id);
}

void FindingLog::holdUndescribed(Finding& finding) {
    // Its author writes the evidence when it is described: until then an empty object would only
    // hold an allocation (W1: 92,000 of them, about 6 MB at the load's peak).
    finding.evidence = nlohmann::json();
}

FindingList FindingLog::release() {
    for (Finding& finding : findings_) {
        if (finding.provisional) {
            withdraw(finding.id);
        }
    }
    describeStale(FindingAuthor::Detail::Full);
    authors_ = {};
    if (!hadProvisional_) {
        return takeFindings();
    }
    FindingList released;
    for (const uint32_t id : madeOrder_) {  // never a withdrawn one: only provisional ones are withdrawn
        released.push_back(std::move(findings_[id]));
        released.back().id = static_cast<uint32_t>(released.size() - 1);
    }
    findings_ = FindingStore{};
    madeOrder_.clear();
    return released;
}

FindingList FindingLog::takeFindings() {
    FindingList taken(std::move(findings_));
    findings_ = FindingStore{};
    return taken;
}

FindingList FindingLog::releaseMeasured() {
    if (hadProvisional_) {
        throw std::logic_error("FindingLog::releaseMeasured: the log holds provisional findings");
    }
    for (const uint32_t id : stale_) {
        authors_[id].stale = false;
    }
    stale_.clear();
    for (const uint32_t id : evidenceStale_) {
        authors_[id].evidenceStale = false;
    }
    evidenceStale_.clear();
    for (Finding& finding : findings_) {
        const Authorship& authorship = authors_[finding.id];
        if (authorship.author != nullptr) {
            authorship.author->measure(authorship.record, finding);
        }
    }
    return takeFindings();
}

void FindingLog::describeReleased(Finding& finding, FindingAuthor::Detail detail) const {
    const Authorship& authorship = authors_[finding.id];
    authorship.author->describe(authorship.record, finding, detail);
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
        // (describing a growing finding at every change would cost its size each time), and
        // measured at the others: a live stream reports a stall's end and duration when they come.
        if (listener_) {
            if (std::has_single_bit(authorship.changes)) {
                describe(id);
            } else {
                authorship.author->measure(authorship.record, findings_[id]);
            }
        }
    }
    if (listener_) {
        listener_(findings_[id], false);
    }
}

void FindingLog::describe(uint32_t id) const {
    Authorship& authorship = authors_[id];
    authorship.stale = false;
    authorship.evidenceStale = false;
    authorship.author->describe(authorship.record, findings_[id], FindingAuthor::Detail::Full);
}

void FindingLog::describeStale(FindingAuthor::Detail detail) const {
    const bool full = detail == FindingAuthor::Detail::Full;
    // Each stale finding once (an id is listed again if it went stale again after a listener's
    // describe), and for a full description each one described without its evidence since, marked
    // described before the work is shared out.
    size_t count = 0;
    for (const uint32_t id : stale_) {
        Authorship& authorship = authors_[id];
        if (authorship.stale) {
            authorship.stale = false;
            authorship.evidenceStale = authorship.evidenceStale && !full;
            stale_[count++] = id;
        }
    }
    stale_.resize(count);
    if (full) {
        for (const uint32_t id : evidenceStale_) {
            if (authors_[id].evidenceStale) {
                authors_[id].evidenceStale = false;
                stale_.push_back(id);
            }
        }
        evidenceStale_.clear();
    }
    // At the end of an analysis every finding is stale: building their evidence is shared with a
    // second thread, each thread taking the next finding as it is free (their sizes vary by kind).
    std::atomic<size_t> next{0};
    const auto describeNext = [this, &next, detail] {
        for (size_t at = next++; at < stale_.size(); at = next++) {
            const Authorship& authorship = authors_[stale_[at]];
            authorship.author->describe(authorship.record, findings_[stale_[at]], detail);
        }
    };
    constexpr size_t kFewForTwoThreads = 256;
    if (stale_.size() >= kFewForTwoThreads && secondThreadAllowed()) {
        std::future<void> helped = std::async(std::launch::async, describeNext);
        describeNext();
        helped.get();
    } else {
        describeNext();
    }
    if (!full) {
        for (const uint32_t id : stale_) {
            if (!authors_[id].evidenceStale) {
                authors_[id].evidenceStale = true;
                evidenceStale_.push_back(id);
            }
        }
    }
    stale_.clear();
}

const FindingStore& FindingLog::all() const {
    describeStale(FindingAuthor::Detail::Full);
    return findings_;
}

const Finding& FindingLog::butEvidence(uint32_t id) const {
    Authorship& authorship = authors_[id];
    if (authorship.author != nullptr && authorship.stale) {
        authorship.stale = false;  // still listed in stale_, which skips it now
        authorship.author->describe(authorship.record, findings_[id], FindingAuthor::Detail::ButEvidence);
        if (!authorship.evidenceStale) {
            authorship.evidenceStale = true;
            evidenceStale_.push_back(id);
        }
    }
    return findings_[id];
}

const FindingStore& FindingLog::allButEvidence() const {
    describeStale(FindingAuthor::Detail::ButEvidence);
    return findings_;
}

}  // namespace tcpscope
