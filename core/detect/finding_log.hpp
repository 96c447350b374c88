#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "detect/host_population.hpp"
#include "engine/finding.hpp"

namespace tcpscope {

/// A detector that keeps what it found in its own typed records and writes a finding's summary
/// and evidence from them only when the finding is read, instead of rebuilding JSON on every
/// change (a finding may grow with every packet of a flow).
class FindingAuthor {
public:
    /// Writes the parts of `finding` this author keeps (summary, evidence, ...) from its record
    /// `record`, the number given to FindingLog::add.
    virtual void describe(uint32_t record, Finding& finding) const = 0;

protected:
    FindingAuthor() = default;
    FindingAuthor(const FindingAuthor&) = default;
    FindingAuthor& operator=(const FindingAuthor&) = default;
    ~FindingAuthor() = default;
};

/// The findings of one analysis, in the order they were first made. A detector adds a finding
/// as soon as it is sure of it (so a live capture shows it at once) and may keep growing it
/// (more stalls on the same flow, more time lost), telling the log each time. A finding with an
/// author is described again only when it is read (all(), release()) after a change, and, for a
/// listener, at its first change and whenever its changes since it was added reach a power of two.
class FindingLog {
public:
    /// Called with a finding when it is added (isNew) or has changed.
    using Listener = std::function<void(const Finding& finding, bool isNew)>;

    /// Stores `finding`, gives it its id, and tells the listener. Returns the id. With an
    /// `author`, the finding is described by author->describe(record, ...) whenever it is read
    /// after a change; the author must outlive every read of the log.
    uint32_t add(Finding finding, const FindingAuthor* author = nullptr, uint32_t record = 0);
    /// The finding with `id`, to be changed in place; call changed(id) afterwards.
    Finding& edit(uint32_t id) { return findings_[id]; }
    /// Tells the log (and the listener) that finding `id` has changed.
    void changed(uint32_t id);

    /// Every finding, each described from its author's records as they are now.
    [[nodiscard]] const std::vector<Finding>& all() const;
    /// Takes the findings out of the log, described as they are now.
    std::vector<Finding> release();
    void setListener(Listener listener) { listener_ = std::move(listener); }

    /// Keeps a population series a detector hands out when the input ends (for charts).
    void addPopulation(HostPopulation population) { populations_.push_back(std::move(population)); }
    /// Takes the population series out of the log.
    std::vector<HostPopulation> releasePopulations() { return std::move(populations_); }

private:
    struct Authorship {
        const FindingAuthor* author = nullptr;
        uint32_t record = 0;
        uint32_t changes = 0;  // since the finding was added
        bool stale = false;    // changed since it was last described
    };

    void describe(uint32_t id) const;
    void describeStale() const;

    // Reading a finding describes it first: the log is a view of the authors' records, so that
    // is not a change a reader can see, and a const reader (a live snapshot) may do it.
    mutable std::vector<Finding> findings_;
    mutable std::vector<Authorship> authors_;  // [finding id]
    mutable std::vector<uint32_t> stale_;      // ids of authored findings changed since described
    Listener listener_;
    std::vector<HostPopulation> populations_;
};

}  // namespace tcpscope
