#pragma once
#include <absl/container/flat_hash_map.h>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "detect/detector.hpp"
#include "detect/support/connection_states.hpp"
#include "detect/support/fifo_queue.hpp"
#include "detect/support/population_series.hpp"

namespace tcpscope {

/// Counts, per host and role, the connections it closed first: the active closer keeps each one
/// in TIME_WAIT for the TIME_WAIT length (Linux 60 s). Estimates the TIME_WAIT population over
/// time (an entry ends early when a new SYN reuses its 4-tuple or a RST kills it), the rate of
/// active closes (peak over 1 s windows and mean) and says which side accumulates the entries
/// and why. One `time_wait_churn` finding per host and role that closed at least
/// `timeWaitMinCloses` connections first: info, or warning when the peak population exceeds
/// `timeWaitWarnShare` of the ephemeral port range (at that point the 4-tuples between the
/// host and its peers start to run short, see port_exhaustion and port_reuse).
class TimeWaitDetector : public Detector, private FindingAuthor {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    /// Asks for the memory onSegment(event) will read (DetectorSet calls it for every detector
    /// before any of them runs, so that their cache misses overlap instead of following each other).
    void prefetch(const SegmentEvent& event) const;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;
    void addPopulationsOf(const IpAddress& host, std::vector<HostPopulation>& populations) const override;
    void visitAllPopulations(const PopulationVisitor& visit) const override;

private:
    // A host is an address in one role: on loopback the client and the server share an address
    // but accumulate TIME_WAIT for different reasons.
    struct HostKey {
        IpAddress address;
        Side role = Side::Client;
        auto operator<=>(const HostKey&) const = default;
        template <typename H>
        friend H AbslHashValue(H state, const HostKey& key) {
            return H::combine(std::move(state), key.address, key.role);
        }
    };

    // What a host keeps for its finding once it closed `timeWaitMinCloses` connections first
    // (most hosts of a large capture never do).
    struct CloseTally {
        int64_t firstCloseTsNs = 0;
        int64_t lastCloseTsNs = 0;
        FifoQueue<int64_t> lastSecondCloses;  // close times within the last second
        size_t peakClosesPerSecond = 0;
        int64_t peakRateTsNs = 0;
        PopulationSeries closesSoFar;          // cumulative, for the rate over time
        std::vector<std::pair<Endpoint, uint64_t>> servers;  // server endpoints of the closed connections (bounded)
        uint64_t otherServers = 0;             // closes towards servers beyond the listed ones
        bool hasFinding = false;
        uint32_t findingId = 0;
        Severity severity = Severity::Info;
        int64_t seriesEndNs = 0;  // the finding's series run until here (the close or the end that changed it)
    };

    // A close counted before the host's tally was built (its server is read from the connection).
    // Every host's are in one pool, each host's chained in order: most hosts of a large capture
    // close a few connections and never build a tally, and a list of their own would cost each of
    // them a vector and its regrowths.
    static constexpr uint32_t kNoEarlyClose = UINT32_MAX;
    struct EarlyClose {
        int64_t tsNs = 0;
        uint32_t connection = 0;
        uint32_t next = kNoEarlyClose;  // the host's next early close
    };

    struct HostState {
        HostKey key;
        uint64_t closes = 0;
        PopulationSeries population;             // every host's, for its chart
        uint32_t firstEarly = kNoEarlyClose;     // in earlyCloses_, until the tally is built, then
        uint32_t lastEarly = kNoEarlyClose;      // replayed into it
        std::unique_ptr<CloseTally> tally;
    };

    // What this detector remembers of every connection: two bits (its host is found again from
    // the connection when its TIME_WAIT ends early, and kept in the expiry otherwise).
    struct ConnectionState {
        bool aborted : 1 = false;       // a RST not followed by a SYN
        bool timeWaitLive : 1 = false;  // counted in its host's population right now
    };

    struct Expiry {
        int64_t tsNs;
        uint32_t connection;
        uint32_t host;
    };

    ConnectionState& stateOf(uint32_t connection);
    void expire(int64_t nowNs) {
        if (!expiries_.empty() && expiries_.front().tsNs <= nowNs) {
            expireUntil(nowNs);
        }
    }
    void expireUntil(int64_t nowNs);
    // The TIME_WAIT of `connection`, held by `host`, ends at `tsNs` (if it still counts).
    void endTimeWait(uint32_t connection, uint32_t host, int64_t tsNs);
    // ... the same, early: the host is the one its close was counted for. `connection` is a record
    // (of an earlier generation) or a segment's snapshot.
    template <typename Record>
    void endTimeWaitEarly(const Record& connection, int64_t tsNs);
    template <typename Record>
    [[nodiscard]] static HostKey hostKeyOf(const Record& connection) {
        return {connection.endpoint(connection.activeCloser).address, connection.activeCloser};
    }
    void recordClose(const ConnectionSnapshot& connection, int64_t tsNs);
    void addEarlyClose(HostState& host, uint32_t connection, int64_t tsNs);
    // Counts the host's early closes into its new tally and gives their entries back.
    void replayEarlyCloses(HostState& host);
    [[nodiscard]] bool isWarning(const HostState& host) const;
    static void count(CloseTally& tally, const Endpoint& server, int64_t tsNs);
    [[nodiscard]] static nlohmann::json closeRates(const CloseTally& tally, int64_t nowNs);
    void refresh(uint32_t hostIndex, int64_t nowNs);
    void describe(uint32_t hostIndex, Finding& finding, Detail detail) const override;
    void measure(uint32_t hostIndex, Finding& finding) const override;
    // The chart's series of `host`: `series` is a copy of host.population, or the series itself.
    [[nodiscard]] HostPopulation populationOf(const HostState& host, PopulationSeries series) const;

    ConnectionStates<ConnectionState> states_;  // [connection id]
    FifoQueue<Expiry> expiries_;          // in time order: every entry lasts the same time
    absl::flat_hash_map<HostKey, uint32_t> hostIndex_;
    ChunkedStore<HostState, 256> hosts_;  // chunks: growing never copies the hosts
    RecordPool<EarlyClose> earlyCloses_;  // every host's early closes, until replayed into its tally
};

}  // namespace tcpscope
