#include "decode/ip_address.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace tcpscope {
namespace {

/// The ::ffff:0:0/96 prefix of IPv4-mapped IPv6 addresses (RFC 4291 section 2.5.5.2).
constexpr std::array<uint8_t, 12> kV4MappedPrefix{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};

}  // namespace

IpAddress IpAddress::fromV4(const uint8_t* fourBytes) {
    IpAddress address;
    std::copy(kV4MappedPrefix.begin(), kV4MappedPrefix.end(), address.bytes.begin());
    std::memcpy(address.bytes.data() + kV4MappedPrefix.size(), fourBytes, 4);
    return address;
}

IpAddress IpAddress::fromV6(const uint8_t* sixteenBytes) {
    IpAddress address;
    std::memcpy(address.bytes.data(), sixteenBytes, address.bytes.size());
    return address;
}

bool IpAddress::isV4() const { return std::equal(kV4MappedPrefix.begin(), kV4MappedPrefix.end(), bytes.begin()); }

std::string IpAddress::toString() const {
    char text[INET6_ADDRSTRLEN] = {};
    // glibc's inet_ntop already follows RFC 5952: lower case, leading zeros dropped, "::" for the
    // first longest run of two or more zero groups.
    const bool v4 = isV4();
    const char* written = v4 ? inet_ntop(AF_INET, bytes.data() + kV4MappedPrefix.size(), text, sizeof text)
                             : inet_ntop(AF_INET6, bytes.data(), text, sizeof text);
    return written != nullptr ? std::string(written) : std::string();
}

std::string Endpoint::toString() const {
    std::string text = address.toString();
    const std::string portText = std::to_string(port);
    if (address.isV4()) {
        return text + ':' + portText;
    }
    return '[' + text + "]:" + portText;
}

}  // namespace tcpscope
