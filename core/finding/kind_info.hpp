#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "finding/finding_kind.hpp"
#include "finding/finding_span.hpp"

namespace tcpscope {

/// The picture that explains a cause in the incident report: the sequence diagram of one stalled
/// connection; a listen backlog overflow's delayed handshakes, SYN by SYN (HandshakeRetries); a port
/// pool's TIME_WAIT against its range with the pause and the failed connect() calls
/// (PortPoolPicture); the timeline of a population of connections over the cause's time; or none.
enum class SectionPicture : uint8_t { None, Sequence, Handshakes, PortPool, Timeline };

/// What one wait of a kind held up, as the reports count its waits: "39 requests delayed".
enum class WaitUnit : uint8_t {
    Request,            ///< a request or message of a connection
    Handshake,          ///< a connection's handshake
    Pause,              ///< a pause of every new connection of a port pool
    ConnectionAttempt,  ///< an attempt no one answered
};

/// The group a kind's spans are coloured and named by on the timeline: one colour and one legend
/// entry per group (stallGroupLabel); the kinds of no group of their own share Other.
enum class StallGroup : uint8_t {
    NagleDelayedAck,
    RetransmissionTimeout,
    ZeroWindow,
    PortReuse,
    SynBacklog,
    PortExhaustion,
    TimeWait,
    Other,
};
inline constexpr size_t kStallGroupCount = 8;

/// How several capture points break a kind's spans into parts along the path (core/points/hop_attribution).
enum class HopPlacement : uint8_t {
    None,            ///< not broken down
    DelayedAck,      ///< the small segment, the late ACK and the held segment followed from point to point
    Retransmission,  ///< the sender's timer, and the hop where the unanswered transmission was lost
    ReceiverWindow,  ///< the receiver's part: its application not reading while its window was closed
};

/// What the findings of a kind are about, so that the findings of one incident can be linked: two
/// findings of one scope and one subject (the same port pool, process, listener...) tell one story.
enum class IncidentScope : uint8_t {
    PortPool,    ///< the ephemeral ports of one client address toward one server
    Process,     ///< one process's sockets: both sides of a proxy that holds its writes
    Listener,    ///< one listening socket (server endpoint)
    Connection,  ///< one connection alone
    Capture,     ///< the capture as a whole: traffic of many hosts, or the capture itself
};

/// A kind's place in the chain of an incident.
enum class ChainRole : uint8_t {
    Cause,   ///< starts a chain: what the incident's fix addresses
    Effect,  ///< follows from a cause of the same scope and subject when one is found, else stands alone
};

/// How a kind's findings link into incidents (core/incident/incident_linking).
struct IncidentLink {
    IncidentScope scope = IncidentScope::Connection;
    ChainRole role = ChainRole::Cause;
    /// The scope of another kind's cause whose incident a finding of this kind joins, as an effect, when
    /// it concerns that cause's subject in its time: the retransmissions, reused ports and churn of the
    /// connections a full listen queue held up are that listener's story. nullopt: its own scope only.
    std::optional<IncidentScope> joins;
    /// What a finding of this kind is as a step of an incident's chain, in a person's words.
    std::string_view step;
};

/// The roles of the frames a kind's spans list (FindingSpan::frames), in the order a span lists them
/// (a span may leave out a frame it has not seen).
struct FrameRoles {
    std::array<FrameRole, SpanFrames::kCapacity> roles{};
    uint8_t count = 0;
    /// Whether the incident report's evidence line names them: "frames 4, 5 and 6 (the small segment,
    /// the late ACK, the held segment)".
    bool named = false;

    [[nodiscard]] constexpr const FrameRole* begin() const { return roles.data(); }
    [[nodiscard]] constexpr const FrameRole* end() const { return roles.data() + count; }
    [[nodiscard]] constexpr bool empty() const { return count == 0; }

    /// The roles the report names.
    static constexpr FrameRoles namedInReport(std::initializer_list<FrameRole> list) { return of(list, true); }
    /// The roles the report leaves unnamed (the first and the last frame are the wait's start and end).
    static constexpr FrameRoles unnamed(std::initializer_list<FrameRole> list) { return of(list, false); }

private:
    static constexpr FrameRoles of(std::initializer_list<FrameRole> list, bool named) {
        FrameRoles frames;
        for (const FrameRole role : list) {
            frames.roles[frames.count++] = role;
        }
        frames.named = named;
        return frames;
    }
};

/// One row of the table of kinds (in the manner of Wireshark's expert-info table): everything the
/// program says of a kind of finding, in one place. A new kind is its detector, one line in the
/// detector set and one row here (kind_info.cpp).
struct KindInfo {
    FindingKind kind = FindingKind::DelayedAckStall;
    std::string_view name;     ///< in the JSON report, the records and the notes: "delayed_ack_stall"
    std::string_view title;    ///< what a person reads: "Nagle + delayed ACK"
    std::string_view cause;    ///< one sentence: the mechanism (the incident report's root cause)
    std::string_view fix;      ///< one sentence: what to change, said in general
    SectionPicture picture = SectionPicture::None;  ///< what the incident report draws for a cause of it
    WaitUnit waits = WaitUnit::Request;              ///< what one of its waits held up
    FrameRoles frames;                               ///< what the frames of its spans are
    StallGroup stallGroup = StallGroup::Other;       ///< its colour and legend entry on the timeline
    HopPlacement hops = HopPlacement::None;          ///< how several capture points break its spans down
    IncidentLink incident;                           ///< how its findings link into incidents
};

/// The row of `kind`.
const KindInfo& kindInfo(FindingKind kind);

/// The timeline's words for the spans of a group: "Nagle + delayed ACK", "Ports exhausted", "Finding".
std::string_view stallGroupLabel(StallGroup group);

/// The words the incident report names a frame of a span by: "the small segment", "the late ACK".
std::string_view frameRoleWords(FrameRole role);

}  // namespace tcpscope
