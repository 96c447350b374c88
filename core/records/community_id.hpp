#pragma once
#include <cstdint>
#include <string>

#include "decode/ip_address.hpp"

namespace tcpscope {

inline constexpr uint8_t kIpProtocolTcp = 6;

/// The Community ID v1 of the flow between `a` and `b` (either order gives the same ID), as Zeek,
/// Suricata and Arkime compute it: "1:" + base64(SHA1(seed, addresses, protocol, 0, ports)), the
/// smaller endpoint first. IPv4 addresses (kept IPv4-mapped) are hashed as 4 bytes.
std::string communityIdV1(const Endpoint& a, const Endpoint& b, uint8_t protocol = kIpProtocolTcp, uint16_t seed = 0);

}  // namespace tcpscope
