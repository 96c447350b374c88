#include "decode/icmp_unreachable.hpp"

#include <array>

namespace tcpscope {
namespace {

constexpr uint8_t kIcmpDestinationUnreachable = 3;

using Cause = UnreachableCause;

// ICMP type 3, by code (RFC 792, RFC 1122 3.2.2.1, RFC 1812 5.2.7.1). Code 4, "fragmentation
// needed", is path-MTU discovery and never reaches here (PacketTooBig).
constexpr std::array<UnreachableMeaning, 16> kIcmpCodes{{
    {"network unreachable", Cause::NoRoute},
    {"host unreachable", Cause::NoRoute},
    {"protocol unreachable", Cause::Other},
    {"port unreachable", Cause::PortRejected},
    {"fragmentation needed", Cause::Other},
    {"source route failed", Cause::Other},
    {"destination network unknown", Cause::NoRoute},
    {"destination host unknown", Cause::NoRoute},
    {"source host isolated", Cause::Other},
    {"network administratively prohibited", Cause::Prohibited},
    {"host administratively prohibited", Cause::Prohibited},
    {"network unreachable for type of service", Cause::NoRoute},
    {"host unreachable for type of service", Cause::NoRoute},
    {"communication administratively prohibited", Cause::Prohibited},
    {"host precedence violation", Cause::Other},
    {"precedence cutoff in effect", Cause::Other},
}};

// ICMPv6 type 1, by code (RFC 4443 3.1).
constexpr std::array<UnreachableMeaning, 8> kIcmpv6Codes{{
    {"no route to destination", Cause::NoRoute},
    {"communication with destination administratively prohibited", Cause::Prohibited},
    {"beyond scope of source address", Cause::Other},
    {"address unreachable", Cause::NoRoute},
    {"port unreachable", Cause::PortRejected},
    {"source address failed ingress/egress policy", Cause::Prohibited},
    {"reject route to destination", Cause::Prohibited},
    {"error in source routing header", Cause::Other},
}};

}  // namespace

UnreachableMeaning describeUnreachable(const DestinationUnreachable& message) {
    if (message.type == kIcmpDestinationUnreachable) {
        return message.code < kIcmpCodes.size() ? kIcmpCodes[message.code] : UnreachableMeaning{};
    }
    return message.code < kIcmpv6Codes.size() ? kIcmpv6Codes[message.code] : UnreachableMeaning{};
}

}  // namespace tcpscope
