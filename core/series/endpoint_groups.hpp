#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "decode/ip_address.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// What a connection of a population is doing at a moment, as the population view counts it.
enum class PopulationState : uint8_t {
    SynWait,   ///< its first SYN sent, the handshake not completed yet (SYNs retried meanwhile)
    Open,      ///< handshake done (or seen midstream), not closed yet
    Stalled,   ///< open and inside one of its findings' spans
    TimeWait,  ///< closed with FINs: its active closer keeps the 4-tuple in TIME_WAIT
};
inline constexpr size_t kPopulationStateCount = 4;

/// "waiting on a SYN", "open", "stalled", "TIME_WAIT".
std::string_view populationStateLabel(PopulationState state);

/// When a connection waited on its handshake, was open, and sat in TIME_WAIT: three stretches
/// one after another, [startNs, establishedNs), [establishedNs, closedNs), [closedNs, timeWaitEndNs).
struct ConnectionLife {
    int64_t startNs = 0;
    int64_t establishedNs = 0;  ///< == startNs: no handshake wait (seen midstream)
    int64_t closedNs = 0;       ///< the second FIN, the RST, or its last packet
    int64_t timeWaitEndNs = 0;  ///< == closedNs: no TIME_WAIT (reset, or never closed)
};

/// The life of `connection`, its TIME_WAIT lasting `timeWaitNs` after the second FIN.
ConnectionLife connectionLife(const Connection& connection, int64_t timeWaitNs);
/// The lives of every connection of `connections` (by id), each TIME_WAIT lasting `timeWaitNs`
/// (AnalysisOptions' timeWaitSeconds) unless the capture shows its 4-tuple taken over sooner by a
/// later connection whose SYN was accepted (it got a SYN-ACK): the TIME_WAIT then ends at that SYN
/// (the holder accepted it, or the RST of a collision before it removed the TIME_WAIT), as the
/// time_wait_churn detector counts it.
std::vector<ConnectionLife> connectionLives(const ConnectionStore& connections, int64_t timeWaitNs);

/// Connections of one client host to one server endpoint (a listener): a population.
struct EndpointGroup {
    IpAddress client;
    Endpoint server;
    std::vector<uint32_t> connections;  ///< in the order given
};

/// A connection's client host and server endpoint, by id.
using EndpointsOf = std::function<std::pair<IpAddress, Endpoint>(uint32_t id)>;
/// The groups of the connections `order` names, in order of each group's first connection.
std::vector<EndpointGroup> endpointGroups(std::span<const uint32_t> order, const EndpointsOf& endpointsOf);
/// The same for ids into `connections` (ids past its end are left out).
std::vector<EndpointGroup> endpointGroups(const ConnectionStore& connections, std::span<const uint32_t> order);

/// Counts per pixel column of a population: for each state, how many connections were in it at
/// some time within the column. Spans are added in any order; reading is O(columns).
class DensityGrid {
public:
    /// `columns` columns of `nsPerColumn` each, the first starting at `fromNs`.
    DensityGrid(int64_t fromNs, double nsPerColumn, size_t columns);

    /// One connection in `state` over [startNs, endNs] (an instant counts in its column).
    void add(PopulationState state, int64_t startNs, int64_t endNs);
    /// A connection's life: its handshake wait, open and TIME_WAIT stretches, cut at `endNs`
    /// (the end of the capture: a TIME_WAIT is not drawn past what was seen).
    void addLife(const ConnectionLife& life, int64_t endNs);

    [[nodiscard]] size_t columns() const { return columns_; }
    /// The count of `state` in each column.
    [[nodiscard]] std::vector<uint32_t> counts(PopulationState state) const;

private:
    int64_t fromNs_;
    double nsPerColumn_;
    size_t columns_;
    // Per state, a difference array: +1 at a span's first column, -1 after its last.
    std::array<std::vector<int32_t>, kPopulationStateCount> steps_;
};

/// The highest number of connections in each state at any one instant: the lives of a group
/// (cut at `endNs`) and its stalls ([start, end] of each, any order).
struct StallStretch {
    int64_t startNs = 0;
    int64_t endNs = 0;
};
std::array<uint32_t, kPopulationStateCount> peakPopulation(std::span<const ConnectionLife> lives,
                                                           std::span<const StallStretch> stalls, int64_t endNs);

}  // namespace tcpscope
