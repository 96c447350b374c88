#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "tcp/analysis_flag_words.hpp"

namespace tcpscope {

/// One lifeline of a sequence diagram: a host's role and the endpoints it uses.
struct SequenceParticipant {
    std::string role;                 ///< "client", "proxy" or "server"
    std::vector<Endpoint> endpoints;  ///< a proxy has two: where it listens, where it connects from
};

/// One packet, drawn as an arrow from its sender's lifeline to its receiver's.
struct SequenceArrow {
    size_t packet = 0;   ///< position in the packet index
    int64_t tsNs = 0;    ///< capture time
    uint32_t frame = 0;  ///< frame number, as in Wireshark
    uint8_t from = 0;    ///< sender's lifeline
    uint8_t to = 0;      ///< receiver's lifeline
    uint8_t leg = 0;     ///< which of the diagram's connections (0, or 1 for the server side of a proxy)
};

inline constexpr size_t kNoArrow = SIZE_MAX;

/// What a packet of a port reuse collision is, when the sequence diagram names it instead of printing its
/// sequence numbers (those of the server's answer and the client's RST belong to the earlier connection).
enum class CollisionRole : uint8_t {
    ReusingSyn,    ///< the first SYN, on the 4-tuple of the earlier connection
    ChallengeAck,  ///< the server's bare ACK, for the earlier connection's sequence space
    ServerRst,     ///< the server's RST of the SYN
    OldStateRst,   ///< the client's RST of the challenge ACK: it drops the old state
    SynAgain,      ///< the SYN sent again
};

/// One packet of a collision, with the earlier connection whose 4-tuple it reuses.
struct CollisionArrow {
    size_t arrow = 0;
    CollisionRole role = CollisionRole::ReusingSyn;
    uint32_t earlierConnection = kNoConnection;
};

/// A stall drawn as a bracket beside the lifeline of the side that waited, with its cause.
struct SequenceStall {
    FindingKind kind = FindingKind::DelayedAckStall;  ///< the finding's kind
    uint32_t findingId = 0;
    uint8_t lifeline = 0;          ///< the sender that waited
    uint8_t peer = 0;              ///< the other end of its connection
    size_t startArrow = 0;         ///< arrow where the wait began (the small segment still unacknowledged)
    size_t endArrow = 0;           ///< arrow that ended it (the held segment leaving)
    size_t causeArrow = kNoArrow;  ///< the arrow that released it (the delayed ACK), or kNoArrow
    int64_t startTsNs = 0;
    int64_t endTsNs = 0;
    std::string text;         ///< "35 bytes held by Nagle for 40.1 ms until the delayed ACK"
    std::string explanation;  ///< one sentence for a reader who does not know the mechanism
    std::string causeText;    ///< note on the cause arrow, e.g. "delayed ACK (40.0 ms)"
    std::string endText;      ///< note on the arrow that ended the wait, e.g. "held 40.1 ms"
    std::string proof;        ///< what the system call trace says, e.g. "strace confirms: sendto(128), ..."
    /// A port reuse collision: the connection whose TIME_WAIT (or old state) the SYN ran into.
    uint32_t earlierConnection = kNoConnection;
};

/// The content of a sequence diagram of one connection, or of two connections through a proxy:
/// lifelines, one arrow per packet in capture order, and the stalls of the findings. Shared by the
/// Mermaid text and the GUI's sequence diagram, so both show the same arrows. Keeps a pointer to the
/// packet index (the analysis's engine's, or a snapshot), which must outlive it.
class SequenceDiagram {
public:
    /// Two lifelines, client and server. Throws std::out_of_range for an unknown connection id,
    /// std::invalid_argument without a packet index.
    static SequenceDiagram ofConnection(const CaptureAnalysis& analysis, uint32_t connection);
    /// Three lifelines, client, proxy and server: `clientSide` is the connection from the client
    /// to the proxy, `serverSide` the one from the proxy to the server.
    static SequenceDiagram ofProxy(const CaptureAnalysis& analysis, uint32_t clientSide, uint32_t serverSide);
    /// The same from a packet index, the connections' state read with it, the findings and what
    /// strace logs add to them (a live capture's snapshot); `store`, if given, holds the earlier
    /// generations of reused 4-tuples (who closed them first: whose TIME_WAIT a colliding SYN ran into).
    static SequenceDiagram ofConnection(const PacketIndex& packets, const Connection& connection,
                                        const FindingList& findings, const FindingEnrichments& enrichments,
                                        const ConnectionStore* store = nullptr);
    static SequenceDiagram ofProxy(const PacketIndex& packets, const Connection& clientSide,
                                   const Connection& serverSide, const FindingList& findings,
                                   const FindingEnrichments& enrichments, const ConnectionStore* store = nullptr);

    [[nodiscard]] const std::vector<SequenceParticipant>& participants() const { return participants_; }
    [[nodiscard]] const std::vector<SequenceArrow>& arrows() const { return arrows_; }
    /// Stalls ordered by their start arrow.
    [[nodiscard]] const std::vector<SequenceStall>& stalls() const { return stalls_; }
    /// The connection ids drawn: one, or two for a proxy (client side first).
    [[nodiscard]] const std::vector<uint32_t>& connections() const { return connections_; }
    [[nodiscard]] bool isProxy() const { return connections_.size() == 2; }
    /// The packets of port reuse collisions named by what they are, ordered by arrow.
    [[nodiscard]] const std::vector<CollisionArrow>& collisionArrows() const { return collisionArrows_; }
    /// What `arrow` is in a collision, or nullptr for an ordinary packet.
    [[nodiscard]] const CollisionArrow* collisionArrowOf(size_t arrow) const;

    /// "[P.] seq=1 ack=1 len=128", with Wireshark's analysis flags in parentheses when set (by their
    /// field names, or in its words for a person: "(Previous segment not captured)"); a packet of a
    /// collision says what it is: "[.] challenge ACK (ack for #3's sequence space)".
    [[nodiscard]] std::string arrowLabel(size_t arrow, FlagNaming naming = FlagNaming::FieldNames) const;
    /// The label for narrow columns: "[.] ack=292" for a pure ACK, "[P.] seq=292 len=35" for data,
    /// "[.] challenge ACK" in a collision.
    [[nodiscard]] std::string arrowShortLabel(size_t arrow) const;
    /// The packet behind `arrow`, read from the index.
    [[nodiscard]] IndexedPacket packetOf(size_t arrow) const;
    /// True if the arrow carries no payload and no SYN, FIN or RST (a pure ACK or window update).
    [[nodiscard]] bool isPureAck(size_t arrow) const;
    /// The arrow of frame `frame`, or kNoArrow.
    [[nodiscard]] size_t arrowOfFrame(uint32_t frame) const;
    /// The first arrow at or after `tsNs` (arrows().size() if none).
    [[nodiscard]] size_t firstArrowAtOrAfter(int64_t tsNs) const;
    /// "client 127.0.0.1:58562", "proxy 127.0.0.1:3307 / 127.0.0.1:41402".
    [[nodiscard]] std::string participantTitle(size_t lifeline) const;

private:
    SequenceDiagram() = default;
    // The diagram of `flows` (one, or a proxy's two); `store` (when not a live snapshot) gives the
    // earlier generations of reused 4-tuples.
    static SequenceDiagram assemble(const PacketIndex& packets, std::vector<Connection> flows,
                                    const FindingList& findings, const FindingEnrichments& enrichments,
                                    const ConnectionStore* store);
    void collectArrows();
    void collectStalls(const FindingList& findings, const FindingEnrichments& enrichments);
    // A port reuse collision's bracket and the roles of its packets, from its span.
    void describeCollision(SequenceStall& stall, const FindingSpan& span, uint8_t leg);
    // The drawn connection whose id is `id` (one of connections_).
    [[nodiscard]] const Connection& flowOf(uint32_t id) const;

    const PacketIndex* packets_ = nullptr;
    std::vector<uint32_t> connections_;
    std::vector<Connection> flows_;  // the drawn connections' state, in the order of connections_
    std::vector<SequenceParticipant> participants_;
    std::vector<SequenceArrow> arrows_;
    std::vector<SequenceStall> stalls_;
    std::vector<CollisionArrow> collisionArrows_;
    // Per drawn connection: the side that closed its earlier generation first, when the analysis
    // (not a live snapshot) has that connection: who holds TIME_WAIT.
    std::vector<std::optional<Side>> earlierCloser_;
};

}  // namespace tcpscope
