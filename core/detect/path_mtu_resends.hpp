#pragma once
#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "detect/detector_options.hpp"
#include "detect/finding_log.hpp"
#include "engine/connection_snapshot.hpp"
#include "engine/segment_observer.hpp"
#include "finding/finding_impact.hpp"

namespace tcpscope {

/// Path-MTU discovery seen in a capture: the "too big" messages routers sent about a direction's
/// segments (ICMP fragmentation needed, ICMPv6 packet too big), and the resends they caused. Data
/// resent after such a message was not lost on a bad path: a router refused its packet as larger
/// than its next hop takes, and the sender sends it again in smaller segments. Its cause and fix
/// differ from a loss (make the MTU consistent along the path, clamp the MSS where it shrinks, let
/// these messages through firewalls), so it is its own finding, `path_mtu`, one per connection and
/// sending side: information when the sender resent at once, a warning when it waited for its
/// retransmission timer after the message (the message, or what it said, was not acted on).
///
/// An episode starts at the first resend of data whose last transmission came before a message
/// about its direction; it takes every resend of the data that was in flight then (from the first
/// resent byte to the highest sent), and the further messages about that data (a router answers
/// every refused packet). The time lost is the wait of the refused data: from its transmission to
/// its first resend. Owned by RetransmissionStallDetector, which offers it every resend.
class PathMtuResends final : private FindingAuthor {
public:
    PathMtuResends(const DetectorOptions& options, FindingLog& log) : options_(options), log_(log) {}

    /// Remembers a message (in capture order).
    void add(const PacketTooBigEvent& event);
    /// Whether any message was about segments from `source` to `destination` (one test while there is none).
    [[nodiscard]] bool heardAbout(const Endpoint& source, const Endpoint& destination) const {
        return !directions_.empty() && directions_.contains(std::make_pair(source, destination));
    }

    /// A resend, with the last transmission of the data it starts with.
    struct Resend {
        uint32_t sentFrame = 0;  ///< the last transmission before this one
        int64_t sentNs = 0;
        bool sentCaptured = true;  ///< false if the capture missed that transmission
        uint32_t highestEnd = 0;   ///< the end of the highest data the sender had sent before the resend
    };
    /// Takes the resend in `event` (of data starting at the segment's sequence number) if a message
    /// explains it: counts it in the finding of its connection and sender (made at the first) and
    /// returns true; false if no message about its direction came while that data was in flight.
    bool claim(const SegmentEvent& event, const Resend& resend);

private:
    struct Message {
        int64_t tsNs = 0;
        uint32_t frame = 0;
        uint32_t nextHopMtu = 0;
        uint32_t quotedPacketBytes = 0;
        uint32_t quotedSeq = 0;
        bool explained = false;  // it started an episode, or was about data of one
        IpAddress reporter;
    };
    static constexpr uint32_t kNotListed = UINT32_MAX;
    struct Episode {
        uint32_t fromSeq = 0;  // [fromSeq, toSeq): the data in flight when it started
        uint32_t toSeq = 0;
        uint32_t totals = 0;           // index in totals_
        uint32_t listed = kNotListed;  // index in its Totals::listed
    };
    // What is known of one direction (source, destination) that messages were about.
    struct Direction {
        std::vector<Message> messages;  // the newest, oldest first
        std::vector<Episode> episodes;  // the newest, oldest first
    };
    // One episode as the evidence lists it.
    struct Listed {
        uint32_t refusedFrame = 0;  // the refused data's last transmission before the message
        uint32_t messageFrame = 0;
        uint32_t resentFrame = 0;  // the first resend
        int64_t refusedSentNs = 0;
        int64_t waitNs = 0;      // refused data sent -> first resend
        int64_t reactionNs = 0;  // message -> first resend
        uint32_t relativeSeq = 0;
        uint32_t bytes = 0;  // the data in flight it resends
        uint32_t resends = 0;
        bool refusedCaptured = true;
    };
    // The finding of one sending side of one connection, and what it adds up.
    struct Totals {
        uint32_t findingId = 0;
        Side sender = Side::Client;
        Endpoint senderEndpoint;
        Endpoint receiverEndpoint;
        IpAddress reporter;  // of the first message
        uint32_t smallestMtu = UINT32_MAX;
        uint32_t largestPacketBytes = 0;
        uint32_t messages = 0;
        uint32_t episodes = 0;
        uint32_t resends = 0;
        int64_t lostNs = 0;  // the refused data's waits, to the first resend of each episode
        int64_t longestNs = 0;
        int64_t slowestReactionNs = 0;  // the longest from a message to the first resend after it
        int64_t firstTsNs = 0;
        std::vector<Listed> listed;  // the first episodes
        WaitTally waits;             // every episode
    };

    // The index in totals_ of the finding of `sender` of `connection`, made if new (starting at `startNs`).
    uint32_t totalsOf(const ConnectionSnapshot& connection, Side sender, int64_t startNs);
    static void countMessage(Totals& totals, const Message& message);
    void describe(uint32_t record, Finding& finding, Detail detail) const override;
    void measure(uint32_t record, Finding& finding) const override;
    void measure(const Totals& totals, Finding& finding) const;

    const DetectorOptions& options_;
    FindingLog& log_;
    absl::flat_hash_map<std::pair<Endpoint, Endpoint>, Direction> directions_;
    absl::flat_hash_map<uint32_t, uint32_t> totalsByKey_;  // connection id * 2 + side -> index in totals_
    std::vector<Totals> totals_;
};

}  // namespace tcpscope
