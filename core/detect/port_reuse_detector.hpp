#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "detect/detector.hpp"
#include "detect/support/connection_states.hpp"

namespace tcpscope {

/// Judges every new generation of a 4-tuple (a SYN with a new ISN on a tuple an earlier
/// connection used), from what the earlier connection left behind and how the SYN was answered:
///  - collision (error, one `port_reuse` finding per connection): the receiver still held the
///    old connection (TIME_WAIT, or it never closed) and answered the SYN with a bare ACK for the
///    old connection (the challenge ACK), a RST, or not at all, so the sender had to reset and
///    retransmit; the finding's duration is the delay from the first SYN until the handshake
///    completed;
///  - accepted into a live TIME_WAIT (warning): the receiver closed first moments ago and took
///    the SYN because its timestamp or ISN was newer; it works, but only by that margin;
///  - the earlier connection never closed (warning): no FIN or RST was seen for it;
///  - after the earlier connection was gone (info): reset, its TIME_WAIT expired, or the SYN's
///    sender held the TIME_WAIT itself (tcp_tw_reuse).
/// The non-error classes are grouped into one finding per class, client address and server
/// endpoint, listing every reuse as an instance.
class PortReuseDetector : public Detector, private FindingAuthor {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& event) override;
    /// Asks for the memory onSegment(event) will read (DetectorSet calls it for every detector
    /// before any of them runs, so that their cache misses overlap instead of following each other).
    void prefetch(const SegmentEvent& event) const;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;

    /// How a reuse turned out.
    enum class Outcome : uint8_t { AfterGone, IntoTimeWait, NeverClosed, Collision };

private:
    // How the earlier generation ended, as far as the capture shows.
    enum class EarlierEnd : uint8_t { Reset, Closed, HalfClosed, Open };
    // Why a reuse that lost nothing found no state in the way (a group finding counts them).
    enum class Reason : uint8_t { Reset, ReceiverTimeWait, TimeWaitExpired, SenderTimeWait, HalfClosed, Open };
    static constexpr size_t kReasons = 6;

    // What this detector remembers of every connection (each may become an earlier generation):
    // 20 B, packed to a 4-byte alignment with the timestamp bits beside the reuse's index (24 B
    // unpacked, 4 MB more on W1's million connections).
    // At most a reuse per connection, and 2^30 connections would take 275 GB of Connection records alone.
    static constexpr uint32_t kNoReuse = (1U << 30) - 1;
    struct __attribute__((packed, aligned(4))) ConnectionState {
        int64_t rstTsNs = kNoTime;            // the last RST, unless a SYN followed it
        std::array<uint32_t, 2> lastTsVal{};  // last TCP timestamp sent, per side
        uint32_t reuse : 30 = kNoReuse;       // index in reuses_ when this connection reuses a tuple
        uint32_t hasTsVal : 2 = 0;            // a bit per side: lastTsVal holds one
        [[nodiscard]] bool hasTsValOf(Side side) const { return (hasTsVal >> sideIndex(side) & 1U) != 0; }
    };
    static_assert(sizeof(ConnectionState) == 20);

    // One new generation and its handshake.
    struct Reuse {
        uint32_t connection = 0;
        uint32_t earlier = 0;
        EarlierEnd earlierEnd = EarlierEnd::Open;
        int64_t sinceEarlierNs = 0;     // from the earlier close (or its last packet) to the SYN
        bool hasHolder = false;         // the earlier connection closed with FINs: someone holds TIME_WAIT
        bool holderIsReceiver = false;  // ... and it is the side the new SYN goes to
        Side holderSide = Side::Client;
        Endpoint holderEndpoint;
        Endpoint client;
        Endpoint server;
        bool timeWaitLive = false;      // the receiver's TIME_WAIT had not expired at the SYN
        int isnNewer = -1;              // -1 unknown, 0 no, 1 yes: above what the sender sent before
        int timestampNewer = -1;        // -1 unknown, 0 no, 1 yes
        int64_t synTsNs = 0;
        uint32_t synFrame = 0;
        std::vector<uint32_t> synRetransmissionFrames;
        uint32_t synRetransmissions = 0;
        int64_t firstRetransmissionTsNs = kNoTime;
        uint32_t challengeAckFrame = 0;
        uint32_t challengeAcks = 0;
        uint32_t receiverRstFrame = 0;
        uint32_t senderRstFrame = 0;
        uint32_t synAckFrame = 0;
        uint32_t synAckIsn = 0;
        uint32_t establishedFrame = 0;
        int64_t establishedTsNs = kNoTime;
        int64_t lastHandshakeTsNs = 0;
        bool decided = false;
        bool done = false;  // nothing more to watch
        Outcome outcome = Outcome::AfterGone;
        Reason reason = Reason::Open;  // for the non-error outcomes
        uint32_t findingId = 0;
        uint32_t index = 0;  // in reuses_
    };

    // One finding that gathers the non-error reuses of one class between two addresses.
    using GroupKey = std::tuple<Outcome, IpAddress, Endpoint>;
    struct Group {
        GroupKey key;
        uint32_t findingId = 0;
        uint32_t reuses = 0;
        std::array<uint32_t, kReasons> reasons{};  // [Reason]
        std::vector<uint32_t> listed;              // indices in reuses_ of the first reuses
        int64_t minSinceNs = INT64_MAX;
        int64_t maxSinceNs = INT64_MIN;
        uint32_t timestampNewer = 0;
        uint32_t isnNewer = 0;
    };

    ConnectionState& stateOf(uint32_t connection);
    void startReuse(const SegmentEvent& event);
    void watchHandshake(const SegmentEvent& event, Reuse& reuse);
    [[nodiscard]] bool receiverMayHoldState(const Reuse& reuse) const;
    [[nodiscard]] bool isCollision(const Reuse& reuse) const;
    void decide(Reuse& reuse);
    void recordCollision(Reuse& reuse);
    [[nodiscard]] uint32_t indexOf(const Reuse& reuse) const;
    void addToGroup(Reuse& reuse);
    [[nodiscard]] Reason reasonOf(const Reuse& reuse) const;
    void describe(uint32_t record, Finding& finding, Detail detail) const override;
    void measure(uint32_t record, Finding& finding) const override;
    // The time from a collision's first SYN to its connection's establishment (or its last try).
    static int64_t delayNsOf(const Reuse& reuse);
    // The collision's duration and impact: the new connection's handshake, held up.
    static void measureCollision(const Reuse& reuse, Finding& finding);
    void describeCollision(const Reuse& reuse, Finding& finding) const;
    void describeGroup(const Group& group, Finding& finding, Detail detail) const;
    [[nodiscard]] nlohmann::json describe(const Reuse& reuse) const;

    ConnectionStates<ConnectionState> states_;  // [connection id]
    ChunkedStore<Reuse> reuses_;  // chunks: growing never copies the reuses
    std::map<GroupKey, uint32_t> groupIndex_;  // -> index in groups_
    std::vector<Group> groups_;
};

/// "after_gone", "into_time_wait", "never_closed" or "collision", as in the finding's evidence.
std::string_view portReuseOutcomeName(PortReuseDetector::Outcome outcome);

}  // namespace tcpscope
