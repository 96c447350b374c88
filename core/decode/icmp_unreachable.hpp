#pragma once
#include <cstdint>
#include <string_view>

#include "decode/decoded_packet.hpp"

namespace tcpscope {

/// What a "destination unreachable" message tells of the segment it refuses, for the advice that
/// follows from it.
enum class UnreachableCause : uint8_t {
    Prohibited,    ///< a firewall's reject rule ("administratively prohibited", a source policy, a reject route)
    PortRejected,  ///< "port unreachable": nothing listens there, or a reject rule answering as if (iptables' default)
    NoRoute,       ///< the router knows no way to the network or the host ("net/host unreachable", "unknown")
    Other,         ///< anything else (protocol unreachable, source route failed, scope, precedence)
};

/// The meaning of a message, in the words of RFC 792, 1812 and 4443.
struct UnreachableMeaning {
    std::string_view text;  ///< "communication administratively prohibited", ...
    UnreachableCause cause = UnreachableCause::Other;
};

/// What `message` (ICMP type 3 or ICMPv6 type 1, by `message.type`) says by its code; an unknown code
/// is "destination unreachable (code N)" in the caller's words, with cause Other and an empty text.
UnreachableMeaning describeUnreachable(const DestinationUnreachable& message);

}  // namespace tcpscope
