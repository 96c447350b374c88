#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "tcp/connection.hpp"

namespace tcpscope {

/// A stretch of capture time, [startNs, endNs].
struct WaitRange {
    int64_t startNs = 0;
    int64_t endNs = 0;
};

/// What a finding cost, measured the same way for every kind (the report's `impact`). A wait is one
/// stretch during which a connection could not go on: a stall, a delayed handshake, a pause of a
/// port pool (a wait of no connection).
struct FindingImpact {
    /// Wall-clock time during which at least one of its waits was going on: the union of the waits,
    /// never longer than the capture. What a user of the service felt.
    double wallMs = 0;
    uint32_t connections = 0;      ///< connections that waited
    uint64_t delayedRequests = 0;  ///< waits: each held up one request, message or handshake
    double p50Ms = 0;              ///< the waits' median
    double p99Ms = 0;              ///< their 99th percentile (nearest rank)
    double maxMs = 0;              ///< the longest
    /// The waits added up over connections: connection-time, which may exceed the capture's
    /// duration when connections waited at once. Only ever shown labelled as such.
    double connectionMs = 0;
};

/// The waits of one finding, as its detector sees them: counted one by one, and measured on demand
/// (when the finding is described), so that adding a wait stays cheap.
class WaitTally {
public:
    /// Adds a wait of `connection` (kNoConnection for a pause of a host or port pool); returns its
    /// index for extend().
    uint32_t add(uint32_t connection, int64_t startNs, int64_t endNs);
    /// The wait `index` has lasted `lengthNs` from its start (a handshake whose retries go on).
    void setLength(uint32_t index, int64_t lengthNs);

    [[nodiscard]] bool empty() const { return waits_.empty(); }
    [[nodiscard]] size_t size() const { return waits_.size(); }

    /// The impact of the waits so far and, live, of `ongoing`: a wait going on now.
    [[nodiscard]] FindingImpact impact(std::optional<WaitRange> ongoing = std::nullopt) const;
    /// The union of the waits (and of `ongoing`): disjoint ranges in time order.
    [[nodiscard]] std::vector<WaitRange> merged(std::optional<WaitRange> ongoing = std::nullopt) const;

private:
    struct Wait {
        int64_t startNs = 0;
        int64_t endNs = 0;
        uint32_t connection = kNoConnection;
    };
    std::vector<Wait> waits_;
};

/// A wait going on since `sinceNs` for `lengthNs` so far (live), or nullopt if none is (0 long).
inline std::optional<WaitRange> ongoingWait(int64_t sinceNs, int64_t lengthNs) {
    return lengthNs > 0 ? std::optional<WaitRange>(WaitRange{sinceNs, sinceNs + lengthNs}) : std::nullopt;
}

/// The union of `ranges` (any order, may overlap): disjoint ranges in time order.
std::vector<WaitRange> mergeRanges(std::vector<WaitRange> ranges);
/// Nanoseconds covered by disjoint `ranges`.
int64_t coveredNs(const std::vector<WaitRange>& ranges);

}  // namespace tcpscope
