#pragma once
#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <cstdint>
#include <string>
#include <vector>

#include "detect/detector.hpp"

namespace tcpscope {

/// Finds connection attempts that never became connections, and says which of three things they
/// were, once the input has ended (or a live capture's connection is retired):
/// - `syn_unanswered`: a client's SYN retransmitted and never answered by a SYN-ACK (a firewall
///   dropping it, a host that is down, a wrong address), or answered only by a RST after the
///   client had retransmitted. One finding per server endpoint; a client whose attempts to many
///   servers went unanswered (a peer-to-peer client, a crawler) gets one info finding for all of
///   them: that is how such clients work, not the cause of an incident by itself. SYNs a router
///   answered with an ICMP "destination unreachable" were refused, not dropped: the finding names
///   the router and what its message means (a firewall's reject rule, no route to the host).
/// - `syn_flood`: many SYNs from many sources or source ports towards one endpoint in a short
///   time, mostly unanswered or left half-open: one finding, not one per SYN; or a burst of a few
///   dozen, each from an address of its own and sent once, none answered (spoofed sources: no TCP
///   stack behind them retransmits).
/// - `port_scan` (info): one source probing many ports of one host, or a host that answers none
///   of the attempts on many of its ports (a darknet, a honeypot's view of scanners); its probes
///   are neither of the above.
/// A SYN sent once and not retransmitted (a scanner's probe, a capture that ended) waited for
/// nothing anyone can tell and is not a finding by itself; nor are SYNs repeated faster than any
/// TCP stack's retransmission timer (kMinSynRetryNs apart on average: probes, not retries).
class SynUnansweredDetector final : public Detector {
public:
    using Detector::Detector;

    void onSegment(const SegmentEvent& /*event*/) override {}
    /// Remembers an ICMP "destination unreachable" about a segment: the SYN it quotes was refused.
    void onUnreachable(const UnreachableEvent& event) override;
    void onEnd(int64_t lastTsNs) override;
    void onRetire(const Connection& connection) override;

private:
    static constexpr uint32_t kNoRefusal = UINT32_MAX;

    // The first "destination unreachable" message about the segments from one endpoint to another.
    struct Refusal {
        DestinationUnreachable message;
        uint32_t frame = 0;
        uint32_t quotedSeq = 0;
    };

    // A handshake the client began and that never completed.
    struct Attempt {
        uint32_t connection = 0;
        uint32_t firstFrame = 0;
        uint32_t syns = 0;
        Endpoint client;
        Endpoint server;
        int64_t firstTsNs = 0;
        int64_t lastTsNs = 0;
        int64_t lastSynTsNs = 0;
        uint32_t refusal = kNoRefusal;  // in refusals_: a router's message refusing the SYN
        bool synAcked = false;        // half-open: answered, never completed
        bool resetByServer = false;   // refused
    };

    void consider(const Connection& connection);
    // A finding of `kind` about `members` (indexes in attempts_): the connection and time of the
    // first, their first frames in its frames and their connections in `listed` (both bounded).
    Finding findingAbout(const std::vector<uint32_t>& members, FindingKind kind, Severity severity,
                         nlohmann::json::array_t& listed) const;
    // Marks the attempts of sources that probed many ports of one host, and writes their findings.
    void findScans(std::vector<bool>& used);
    // Marks the attempts to hosts that answered none on many ports (darknets), with one finding each.
    void findProbedHosts(std::vector<bool>& used);
    // Writes a flood finding for each endpoint that many sources hit at once; marks those attempts.
    void findFloods(std::vector<bool>& used);
    // Writes the findings of the retransmitted, unanswered attempts that are left.
    void findUnanswered(const std::vector<bool>& used);
    // One finding over `members` (indexes in attempts_), all unanswered attempts.
    void writeUnanswered(const std::vector<uint32_t>& members, bool byClient);
    // What the routers' messages say of the attempts among `members` they refused: a clause of the
    // summary (empty if none was), and the evidence.
    [[nodiscard]] std::string refusalsOf(const std::vector<uint32_t>& members, const Endpoint& server,
                                         nlohmann::json::object_t& evidence) const;

    std::vector<Attempt> attempts_;
    std::vector<Refusal> refusals_;
    absl::flat_hash_map<std::pair<Endpoint, Endpoint>, uint32_t> refusalOf_;  // (source, destination) -> refusals_
    absl::flat_hash_set<uint32_t> retiredAttempts_;  // connections whose attempt onRetire took
};

}  // namespace tcpscope
