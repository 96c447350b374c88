#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "decode/ip_address.hpp"

namespace tcpscope {

/// A socket address as strace prints it in connect, bind, accept, sendto and recvfrom.
struct SocketAddress {
    uint8_t family = 0;        ///< AF_* number (AF_INET 2, AF_INET6 10, AF_UNIX 1); 0 if not an address
    bool hasEndpoint = false;  ///< true for AF_INET and AF_INET6 with a readable address and port
    Endpoint endpoint;
};

/// Parses a struct sockaddr argument: `{sa_family=AF_INET, sin_port=htons(3306),
/// sin_addr=inet_addr("127.0.0.1")}` or `{sa_family=AF_INET6, sin6_port=htons(80), ...
/// inet_pton(AF_INET6, "::1", &sin6_addr), ...}` in either field order; AF_UNIX and other
/// families give only the family. "NULL" or an address (0x7ffd...) gives family 0.
SocketAddress parseSocketAddress(std::string_view text);

/// Parses "127.0.0.1" or "::1" (no brackets) into an address.
std::optional<IpAddress> parseIpAddressText(std::string_view text);

/// Parses "127.0.0.1:3306" or "[::1]:3306" (as in -yy fd decorations).
std::optional<Endpoint> parseEndpointText(std::string_view text);

/// The AF_* number for "AF_INET", "PF_INET6", "AF_UNIX", "AF_LOCAL", ... or a number; 0 if unknown.
uint8_t addressFamilyFromName(std::string_view name);

}  // namespace tcpscope
