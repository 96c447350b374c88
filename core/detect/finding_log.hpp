#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "detect/host_population.hpp"
#include "engine/finding.hpp"

namespace tcpscope {

/// The findings of one analysis, in the order they were first made. A detector adds a finding
/// as soon as it is sure of it (so a live capture shows it at once) and may keep growing it
/// (more stalls on the same flow, more time lost), telling the log each time.
class FindingLog {
public:
    /// Called with a finding when it is added (isNew) or has changed.
    using Listener = std::function<void(const Finding& finding, bool isNew)>;

    /// Stores `finding`, gives it its id, and tells the listener. Returns the id.
    uint32_t add(Finding finding);
    /// The finding with `id`, to be changed in place; call changed(id) afterwards.
    Finding& edit(uint32_t id) { return findings_[id]; }
    /// Tells the listener that finding `id` has changed.
    void changed(uint32_t id);

    [[nodiscard]] const std::vector<Finding>& all() const { return findings_; }
    /// Takes the findings out of the log.
    std::vector<Finding> release() { return std::move(findings_); }
    void setListener(Listener listener) { listener_ = std::move(listener); }

    /// Keeps a population series a detector hands out when the input ends (for charts).
    void addPopulation(HostPopulation population) { populations_.push_back(std::move(population)); }
    /// Takes the population series out of the log.
    std::vector<HostPopulation> releasePopulations() { return std::move(populations_); }

private:
    std::vector<Finding> findings_;
    Listener listener_;
    std::vector<HostPopulation> populations_;
};

}  // namespace tcpscope
