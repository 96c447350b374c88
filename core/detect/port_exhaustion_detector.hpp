#pragma once
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "detect/connection_states.hpp"
#include "detect/detector.hpp"
#include "detect/fifo_queue.hpp"
#include "detect/population_series.hpp"

namespace tcpscope {

/// Follows, per client address towards one server address and port, the ephemeral ports in use
/// (connections open, or closed by the client first and still in its TIME_WAIT), the observed
/// port range and the rate of new connections. Two `port_exhaustion` findings per such pair:
///  - error: the client's new connections paused for at least `portPauseMinShare` of the
///    TIME_WAIT length while at least `portExhaustionMinPorts` ports, and nearly the whole
///    observed range, were in use, and the first SYN after the pause reused one of those ports
///    (connect() failed with EADDRNOTAVAIL until TIME_WAIT expired); duration = the pause;
///  - warning: the client closed connections first at a rate that fills the port range within one
///    TIME_WAIT length (range / TIME_WAIT: about 470/s for Linux defaults), even if the capture
///    ends before it runs out.
class PortExhaustionDetector : public Detector, private FindingAuthor {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;
    void addPopulationsOf(const IpAddress& host, std::vector<HostPopulation>& populations) const override;

private:
    struct PoolKey {
        IpAddress client;
        Endpoint server;
        auto operator<=>(const PoolKey&) const = default;
        template <typename H>
        friend H AbslHashValue(H state, const PoolKey& key) {
            return H::combine(std::move(state), key.client, key.server);
        }
    };

    // One stretch without new connections while the ports were used up.
    struct Pause {
        int64_t startTsNs = 0;
        int64_t endTsNs = 0;
        uint32_t lastSynFrame = 0;  // last SYN before the pause
        uint32_t nextSynFrame = 0;  // first SYN after it
        uint16_t reusedPort = 0;
        int64_t portsInUse = 0;
        uint32_t observedRangePorts = 0;
    };

    // The distinct client ports of a pool. Most pools see a single port (a client that talks to
    // a server once), which is kept inline; the set is built at the second distinct port.
    class PortSet {
    public:
        void insert(uint16_t port);
        [[nodiscard]] bool contains(uint16_t port) const {
            return more_ ? more_->contains(port) : (single_ && port == first_);
        }
        [[nodiscard]] size_t size() const { return more_ ? more_->size() : (single_ ? 1 : 0); }
        [[nodiscard]] bool empty() const { return size() == 0; }

    private:
        std::unique_ptr<absl::flat_hash_set<uint16_t>> more_;  // every port, once there are two
        uint16_t first_ = 0;
        bool single_ = false;
    };

    // One of a pool's findings, once it is made.
    struct PoolFinding {
        bool made = false;
        uint32_t id = 0;
        int64_t seriesEndNs = 0;  // its series run until its last change
    };

    // What only a pool that came near running out keeps: its peak rate of client closes, the
    // pauses and its findings (built at the first rate or pause, so most pools never have one).
    struct Strain {
        double peakRate = 0;  // of client active closes, per second
        int64_t peakRateTsNs = 0;
        double peakRateWindowS = 0;
        std::vector<Pause> pauses;
        int64_t pausedNs = 0;
        PoolFinding error;
        PoolFinding warning;
    };

    // The ports one client address uses towards one server endpoint (one per such pair: with
    // many clients, about one per connection).
    struct Pool {
        PoolKey key;
        uint16_t lowestPort = UINT16_MAX;
        uint16_t highestPort = 0;
        uint32_t lastSynFrame = 0;
        PopulationSeries portsInUse;
        PortSet ports;             // distinct client ports seen (at most 65536)
        uint64_t connections = 0;  // connections started with a SYN
        int64_t firstSynTsNs = kNoTime;
        int64_t lastSynTsNs = kNoTime;
        int64_t inUseAfterLastSyn = 0;
        uint64_t clientCloses = 0;            // closed by the client first: each holds its port for TIME_WAIT
        FifoQueue<int64_t> recentTimeWaits;  // client active closes within the last TIME_WAIT length
        std::unique_ptr<Strain> strain;
    };

    // What this detector remembers of every connection.
    struct ConnectionState {
        uint32_t pool = UINT32_MAX;
        bool inUse = false;     // holds its client port now
        bool timeWait = false;  // ... because the client closed first
        bool aborted = false;   // a RST not followed by a SYN
    };

    struct Expiry {
        int64_t tsNs;
        uint32_t connection;
    };

    ConnectionState& stateOf(uint32_t connection);
    Pool& poolOf(const Connection& connection, ConnectionState& state);
    void expire(int64_t nowNs);
    void acquire(uint32_t connection, int64_t tsNs);
    void release(uint32_t connection, int64_t tsNs);
    void onNewSyn(const SegmentEvent& event, Pool& pool);
    void onClientClose(const Connection& connection, Pool& pool, int64_t tsNs);
    [[nodiscard]] uint32_t rangePorts() const;
    [[nodiscard]] static uint32_t observedRangePorts(const Pool& pool);
    static Strain& strainOf(Pool& pool);
    void refresh(PoolFinding& made, Severity severity, int64_t startTsNs, uint32_t record, int64_t nowNs);
    void refreshError(uint32_t poolIndex, int64_t nowNs);
    void refreshWarning(uint32_t poolIndex, int64_t nowNs);
    void describe(uint32_t record, Finding& finding) const override;
    void describeError(const Pool& pool, Finding& finding) const;
    void describeWarning(const Pool& pool, Finding& finding) const;
    [[nodiscard]] nlohmann::json poolEvidence(const Pool& pool, int64_t nowNs) const;
    // The pool's series for the host chart; none for a pool that never held two ports.
    [[nodiscard]] std::optional<HostPopulation> populationOf(const Pool& pool) const;

    ConnectionStates<ConnectionState> states_;  // [connection id]
    FifoQueue<Expiry> expiries_;          // in time order: every entry lasts the same time
    absl::flat_hash_map<PoolKey, uint32_t> poolIndex_;
    ConnectionStates<Pool> pools_;  // [pool index]: chunks, so growing never copies the pools
};

}  // namespace tcpscope
