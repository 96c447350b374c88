#include "records/community_id.hpp"

#include <absl/strings/escaping.h>

#include <span>
#include <vector>

#include "records/sha1.hpp"

namespace tcpscope {

namespace {

// The address as the spec hashes it: 4 bytes for IPv4, 16 for IPv6, network order.
std::span<const uint8_t> hashedAddress(const IpAddress& address) {
    const std::span<const uint8_t> all(address.bytes);
    return address.isV4() ? all.subspan(12) : all;
}

void appendBigEndian16(std::vector<uint8_t>& out, uint16_t value) {
    out.push_back(static_cast<uint8_t>(value >> 8));
    out.push_back(static_cast<uint8_t>(value & 0xff));
}

}  // namespace

std::string communityIdV1(const Endpoint& a, const Endpoint& b, uint8_t protocol, uint16_t seed) {
    // The spec orders by the packed address bytes, then the port; with both addresses of one family
    // that is the order of IpAddress (its IPv4-mapped prefix is the same for both).
    const bool aFirst = a.address < b.address || (a.address == b.address && a.port <= b.port);
    const Endpoint& first = aFirst ? a : b;
    const Endpoint& second = aFirst ? b : a;
    std::vector<uint8_t> input;
    input.reserve(2 + 16 + 16 + 2 + 4);
    appendBigEndian16(input, seed);
    for (const uint8_t byte : hashedAddress(first.address)) {
        input.push_back(byte);
    }
    for (const uint8_t byte : hashedAddress(second.address)) {
        input.push_back(byte);
    }
    input.push_back(protocol);
    input.push_back(0);  // padding
    appendBigEndian16(input, first.port);
    appendBigEndian16(input, second.port);
    const Sha1Digest digest = sha1(input);
    return "1:" + absl::Base64Escape(absl::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

}  // namespace tcpscope
