#pragma once
#include <array>
#include <compare>
#include <cstdint>
#include <string>
#include <utility>

namespace tcpscope {

/// An IPv4 or IPv6 address. IPv4 is kept in the IPv4-mapped IPv6 form (::ffff:a.b.c.d).
struct IpAddress {
    std::array<uint8_t, 16> bytes{};

    static IpAddress fromV4(const uint8_t* fourBytes);
    static IpAddress fromV6(const uint8_t* sixteenBytes);
    [[nodiscard]] bool isV4() const;
    /// "192.0.2.1" or "2001:db8::1" (RFC 5952 form).
    [[nodiscard]] std::string toString() const;

    auto operator<=>(const IpAddress&) const = default;

    /// Hashing for absl (and so for every hash map of the project keyed by addresses).
    template <typename H>
    friend H AbslHashValue(H state, const IpAddress& address) {
        return H::combine(std::move(state), address.bytes);
    }
};

/// An address and a TCP port.
struct Endpoint {
    IpAddress address;
    uint16_t port = 0;

    /// "192.0.2.1:80" or "[2001:db8::1]:80".
    [[nodiscard]] std::string toString() const;

    auto operator<=>(const Endpoint&) const = default;

    template <typename H>
    friend H AbslHashValue(H state, const Endpoint& endpoint) {
        return H::combine(std::move(state), endpoint.address, endpoint.port);
    }
};

}  // namespace tcpscope
