#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "finding/finding_placement.hpp"
#include "finding/strace_verdict.hpp"

namespace tcpscope {

/// What was learnt of one finding after its detector made it, from more than its packets. It sits
/// beside the finding (FindingEnrichments), never in its text: the writers say it.
struct FindingEnrichment {
    /// delayed_ack_stall with a strace log of its sender: one verdict per listed span
    /// (Finding::spans), in the same order.
    std::vector<StraceVerdict> straceVerdicts;
    /// port_exhaustion with a strace log: the connect() calls that failed for want of a port.
    std::optional<FailedConnects> failedConnects;
    /// Several capture points: where the time of each listed span went along the path.
    std::optional<FindingPlacement> placement;
};

/// The enrichments of the findings of one investigation, by finding id (Finding::id): strace
/// confirmation and the capture points' placement write them, every reader of a finding may read them.
class FindingEnrichments {
public:
    /// Those of finding `id`: empty when nothing enriched it.
    [[nodiscard]] const FindingEnrichment& of(uint32_t id) const {
        const auto found = byId_.find(id);
        return found != byId_.end() ? found->second : none();
    }
    /// Those of finding `id`, to be written.
    FindingEnrichment& edit(uint32_t id) { return byId_[id]; }
    /// Whether no finding was enriched.
    [[nodiscard]] bool empty() const { return byId_.empty(); }
    /// The enrichment of a finding nothing enriched (a live capture's findings).
    static const FindingEnrichment& none() {
        static const FindingEnrichment kNone;
        return kNone;
    }

private:
    std::map<uint32_t, FindingEnrichment> byId_;  // few: only the findings a trace or a second point saw
};

}  // namespace tcpscope
