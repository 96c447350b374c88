#pragma once
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "detect/detector.hpp"
#include "detect/support/connection_states.hpp"
#include "detect/support/fifo_queue.hpp"
#include "detect/support/population_series.hpp"
#include "finding/finding_impact.hpp"

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
    /// Asks for the memory onSegment(event) will read (DetectorSet calls it for every detector
    /// before any of them runs, so that their cache misses overlap instead of following each other).
    void prefetch(const SegmentEvent& event) const;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;
    void addPopulationsOf(const IpAddress& host, std::vector<HostPopulation>& populations) const override;
    void visitAllPopulations(const PopulationVisitor& visit) const override;

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

    // The distinct client ports of a pool. Most pools see one to three ports (a client that talks
    // to a server a few times), which are kept inline; the set is built at the fourth distinct port.
    class PortSet {
    public:
        void insert(uint16_t port);
        [[nodiscard]] bool contains(uint16_t port) const {
            return more_ ? more_->contains(port)
                         : std::find(inline_.begin(), inline_.begin() + inlineCount_, port) !=
                               inline_.begin() + inlineCount_;
        }
        [[nodiscard]] size_t size() const { return more_ ? more_->size() : inlineCount_; }
        [[nodiscard]] bool empty() const { return size() == 0; }

    private:
        static constexpr size_t kInlinePorts = 3;
        std::unique_ptr<absl::flat_hash_set<uint16_t>> more_;  // every port, once there are more than inline
        std::array<uint16_t, kInlinePorts> inline_{};
        uint8_t inlineCount_ = 0;
    };

    // One of a pool's findings, once it is made.
    struct PoolFinding {
        bool made = false;
        uint32_t id = 0;
        int64_t seriesEndNs = 0;  // its series run until its last change
    };

    // What only a pool that ran out of ports, or closed connections fast enough to, keeps: the
    // pauses and its findings (built with the first of them, so nearly every pool goes without).
    struct Strain {
        std::vector<Pause> pauses;  // the first ones
        WaitTally waits;            // every pause, a wait of no connection
        int64_t pausedNs = 0;
        PoolFinding error;
        PoolFinding warning;
    };

    // The ports one client address uses towards one server endpoint, once it saw more than
    // PoolEntry keeps (see there).
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
        double peakCloseRate = 0;            // of client active closes, per second
        int64_t peakCloseRateWindowNs = 0;   // ... over this window
        std::unique_ptr<Strain> strain;
    };

    // What every pool keeps: one per client address and server endpoint, so with many clients
    // about one per connection, most of which never see a second connection. Until its Pool is
    // built (`full`), a pool is its first connection (which gives its key), holding its port
    // from that connection's first segment until `releaseTsNs`; the first thing this cannot
    // hold (a second connection, a port taken again, a close that could make a finding) builds
    // the Pool as it would be had it been kept from the start.
    struct PoolEntry {
        uint32_t firstConnection = kNoConnection;
        uint32_t full = kCompactAfterSyn;    // index in fullPools_, or one of the two kCompact values
        int64_t releaseTsNs = kNoTime;       // the connection gave its port back
        int64_t clientCloseTsNs = kNoTime;   // the client closed it first
        [[nodiscard]] bool compact() const { return full >= kCompactWithoutSyn; }
    };
    static constexpr uint32_t kCompactAfterSyn = UINT32_MAX;        // no Pool; the connection began with a SYN
    static constexpr uint32_t kCompactWithoutSyn = UINT32_MAX - 1;  // no Pool; it began otherwise (midstream)

    // The pool index: a pool's number and 32 bits of its key's hash (so that growing the index
    // reads no connection); the key itself is read from the pool's first connection.
    struct PoolSlot {
        uint32_t pool;
        uint32_t hash;
    };
    struct PoolProbe {
        const PoolKey& key;
        uint32_t hash;
    };
    struct PoolSlotHash {
        using is_transparent = void;
        size_t operator()(const PoolSlot& slot) const { return absl::Hash<uint32_t>{}(slot.hash); }
        size_t operator()(const PoolProbe& probe) const { return absl::Hash<uint32_t>{}(probe.hash); }
    };
    struct PoolSlotEq {
        using is_transparent = void;
        const PortExhaustionDetector* detector;
        bool operator()(const PoolSlot& a, const PoolSlot& b) const { return a.pool == b.pool; }
        bool operator()(const PoolSlot& slot, const PoolProbe& probe) const {
            return slot.hash == probe.hash && detector->keyOf(slot.pool) == probe.key;
        }
        bool operator()(const PoolProbe& probe, const PoolSlot& slot) const { return (*this)(slot, probe); }
    };

    // What this detector remembers of every connection: 4 B, the flags beside a 29-bit pool index
    // (8 B apart, 4 MB more on W1's million connections). There is at most a pool per connection,
    // and 2^29 connections would take 137 GB of Connection records alone.
    struct ConnectionState {
        uint32_t pool : 29 = (1U << 29) - 1;  // none yet: set at the connection's first segment
        uint32_t inUse : 1 = 0;               // holds its client port now
        uint32_t timeWait : 1 = 0;            // ... because the client closed first
        uint32_t aborted : 1 = 0;             // a RST not followed by a SYN
    };
    static_assert(sizeof(ConnectionState) == 4);

    // Packed to a 4-byte alignment: 12 B in the queue of every TIME_WAIT of the last minute, not 16.
    struct __attribute__((packed, aligned(4))) Expiry {
        int64_t tsNs;
        uint32_t connection;
    };
    static_assert(sizeof(Expiry) == 12);

    ConnectionState& stateOf(uint32_t connection);
    [[nodiscard]] PoolKey keyOf(uint32_t poolIndex) const;
    // The 32 bits of a key's hash the pool index keeps.
    [[nodiscard]] static uint32_t hashOf(const PoolKey& key);
    // The pool of `connection`'s client address and server endpoint; `isNew` if it was made now.
    // `frame`: the event's, whose key hash prefetch() may have computed.
    uint32_t poolIndexOf(const ConnectionSnapshot& connection, uint32_t frame, bool& isNew);
    // The Pool of `poolIndex`, built now if the pool was compact.
    Pool& fullPool(uint32_t poolIndex);
    [[nodiscard]] const Pool& fullPool(uint32_t poolIndex) const { return fullPools_[pools_[poolIndex].full]; }
    void expire(int64_t nowNs) {
        if (!expiries_.empty() && expiries_.front().tsNs <= nowNs) {
            expireUntil(nowNs);
        }
    }
    void expireUntil(int64_t nowNs);
    void onFirstSegment(const SegmentEvent& event, ConnectionState& state);
    void acquire(uint32_t connection, int64_t tsNs);
    void release(uint32_t connection, int64_t tsNs);
    void onNewSyn(const SegmentEvent& event, Pool& pool, uint32_t poolIndex);
    static void recordSyn(Pool& pool, uint16_t port, uint32_t frame, int64_t tsNs);
    void onClientClose(uint32_t connection, uint32_t poolIndex, int64_t tsNs);
    void countClientClose(Pool& pool, uint32_t poolIndex, int64_t tsNs);
    [[nodiscard]] uint32_t rangePorts() const;
    [[nodiscard]] static uint32_t observedRangePorts(const Pool& pool);
    static Strain& strainOf(Pool& pool);
    void refresh(PoolFinding& made, Severity severity, int64_t startTsNs, uint32_t record, int64_t nowNs);
    void refreshError(uint32_t poolIndex, int64_t nowNs);
    void refreshWarning(uint32_t poolIndex, int64_t nowNs);
    void describe(uint32_t record, Finding& finding, Detail detail) const override;
    void measure(uint32_t record, Finding& finding) const override;
    void describeError(const Pool& pool, Finding& finding) const;
    static void measureError(const Pool& pool, Finding& finding);
    void describeWarning(const Pool& pool, Finding& finding) const;
    [[nodiscard]] nlohmann::json poolEvidence(const Pool& pool, int64_t nowNs) const;
    // The pool's series for the host chart; none for a pool that never held two ports.
    // The chart's series of `pool` (none for a pool that never held two ports at once): `series` is
    // a copy of pool.portsInUse, or the series itself.
    [[nodiscard]] std::optional<HostPopulation> populationOf(const Pool& pool, PopulationSeries series) const;
    // The pool's population without its series.
    [[nodiscard]] HostPopulation aboutPool(const Pool& pool) const;

    ConnectionStates<ConnectionState> states_;  // [connection id]
    FifoQueue<Expiry> expiries_;          // in time order: every entry lasts the same time
    // The key hash prefetch() computed for the first segment of frame `frame` (poolIndexOf of the
    // same event does not compute it again).
    struct PrefetchedHash {
        uint32_t frame = 0;
        uint32_t hash = 0;
        bool valid = false;
    };
    mutable PrefetchedHash prefetched_;
    absl::flat_hash_set<PoolSlot, PoolSlotHash, PoolSlotEq> poolIndex_{0, PoolSlotHash{}, PoolSlotEq{this}};
    ChunkedStore<PoolEntry> pools_;      // [pool index]
    ChunkedStore<Pool, 256> fullPools_;  // [PoolEntry::full]: chunks, so growing never copies the pools
};

}  // namespace tcpscope
