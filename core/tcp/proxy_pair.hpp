#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "tcp/connection.hpp"
#include "tcp/packet_index.hpp"

namespace tcpscope {

/// Two connections that look like both sides of a proxy: the client talks to the proxy on
/// `clientSide`, the proxy forwards to the server on `serverSide`.
struct ProxyPair {
    uint32_t clientSide = kNoConnection;
    uint32_t serverSide = kNoConnection;
    uint32_t interleavings = 0;  ///< how often data alternated between the two (the evidence)
};

/// Finds the other side of `connection` through a proxy, if there is one: a connection whose
/// client address is `connection`'s server address (or whose server address is its client
/// address), opened during its life, to another endpoint, with data going back and forth between
/// the two in turn. Of several candidates, the one with the most interleavings wins. Reads only the
/// packets of `connection`'s life; looks at no more than 256 candidates.
/// `sameHost`, when given, tells two addresses of one host apart from two hosts (a proxy that
/// listens on one address and connects from another, as several capture points show it); by
/// default only equal addresses are one host.
using SameHost = std::function<bool(const IpAddress&, const IpAddress&)>;
std::optional<ProxyPair> findProxyPartner(const ConnectionStore& connections, const PacketIndex& packets,
                                          uint32_t connection, const SameHost& sameHost = {});

}  // namespace tcpscope
