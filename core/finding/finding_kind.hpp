#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tcpscope {

/// What a finding is about; its JSON name (findingKindName) is the report's `kind`. A kind is an
/// enumerator here and in kFindingKinds, one row of the table of kinds (kindInfo) and its detector.
enum class FindingKind : uint8_t {
    DelayedAckStall,      ///< Nagle's algorithm met the peer's delayed ACK
    RetransmissionStall,  ///< the sender waited for its retransmission timer
    ZeroWindowStall,      ///< the receiver's closed window blocked the sender
    SynBacklogOverflow,   ///< a listener's SYN or accept queue overflowed
    PortReuse,            ///< a new connection reused the 4-tuple of an earlier one
    TimeWaitChurn,        ///< a host closes first so often that TIME_WAIT piles up
    PortExhaustion,       ///< a client ran out of ephemeral ports
    SynUnanswered,        ///< SYNs that got no answer at all
    SynFlood,             ///< many SYNs from many sources, few handshakes completed
    PortScan,             ///< one source probed many ports of a host, or a host answered none
    CaptureQuality,       ///< the capture itself missed, repeated or reordered packets
    PathMtu,              ///< data resent smaller after a router's "too big" message
};

/// Every kind, in the enum's order.
inline constexpr std::array kFindingKinds = {
    FindingKind::DelayedAckStall,    FindingKind::RetransmissionStall, FindingKind::ZeroWindowStall,
    FindingKind::SynBacklogOverflow, FindingKind::PortReuse,           FindingKind::TimeWaitChurn,
    FindingKind::PortExhaustion,     FindingKind::SynUnanswered,       FindingKind::SynFlood,
    FindingKind::PortScan,           FindingKind::CaptureQuality,      FindingKind::PathMtu,
};

/// The kind's name in the JSON report and everywhere it is shown: "delayed_ack_stall", ... (its row's name: kindInfo)
std::string_view findingKindName(FindingKind kind);
/// What a person reads for the kind: "Nagle + delayed ACK", "Listen backlog overflow", ... (its row's title)
std::string_view findingKindTitle(FindingKind kind);
/// The kind named `name` (findingKindName's inverse), for what is read back from JSON; nullopt
/// for a name no kind has.
std::optional<FindingKind> parseFindingKind(std::string_view name);

/// A kind put into a JSON tree is its name, never the enum's number (nlohmann's default for an
/// enum); found by nlohmann through argument-dependent lookup.
template <typename Json>
void to_json(Json& json, FindingKind kind) {
    json = std::string(findingKindName(kind));
}

}  // namespace tcpscope
