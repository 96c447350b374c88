#include "decode/ip_address.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
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

namespace {

// "0" to "255", for writing dotted addresses a byte at a time.
struct ByteText {
    std::array<char, 4> digits{};
    uint8_t length = 0;
};
constexpr std::array<ByteText, 256> kByteTexts = [] {
    std::array<ByteText, 256> texts{};
    for (unsigned byte = 0; byte < texts.size(); ++byte) {
        ByteText& text = texts[byte];
        if (byte >= 100) {
            text.digits[text.length++] = static_cast<char>('0' + byte / 100);
        }
        if (byte >= 10) {
            text.digits[text.length++] = static_cast<char>('0' + byte / 10 % 10);
        }
        text.digits[text.length++] = static_cast<char>('0' + byte % 10);
    }
    return texts;
}();

// Dotted IPv4 written by hand: inet_ntop formats it through sprintf, which made printing the
// endpoints of a million flows a tenth of the JSON report's time. Needs room for 4 bytes past
// the text's end (each byte's table entry is copied whole, only its length counted).
char* writeDotted(const uint8_t* fourBytes, char* out) {
    for (int i = 0; i < 4; ++i) {
        if (i > 0) {
            *out++ = '.';
        }
        const ByteText& byte = kByteTexts[fourBytes[i]];
        std::memcpy(out, byte.digits.data(), byte.digits.size());
        out += byte.length;
    }
    return out;
}

// The address as text at `out` (room for INET6_ADDRSTRLEN bytes); returns the end.
char* writeAddress(const IpAddress& address, char* out) {
    if (address.isV4()) {
        return writeDotted(address.bytes.data() + kV4MappedPrefix.size(), out);
    }
    // glibc's inet_ntop already follows RFC 5952: lower case, leading zeros dropped, "::" for the
    // first longest run of two or more zero groups.
    char text[INET6_ADDRSTRLEN] = {};
    if (inet_ntop(AF_INET6, address.bytes.data(), text, sizeof text) == nullptr) {
        return out;
    }
    const size_t length = std::strlen(text);
    std::memcpy(out, text, length);
    return out + length;
}

}  // namespace

std::string IpAddress::toString() const {
    char text[INET6_ADDRSTRLEN];
    return std::string(text, writeAddress(*this, text));
}

std::string Endpoint::toString() const {
    char text[kTextCapacity];
    return std::string(text, writeText(text));
}

char* Endpoint::writeText(char* out) const {
    static_assert(kTextCapacity >= INET6_ADDRSTRLEN + 8, "[ + address + ]: + port");
    // "[" + address + "]:" + port
    const bool v4 = address.isV4();
    if (!v4) {
        *out++ = '[';
    }
    out = writeAddress(address, out);
    if (!v4) {
        *out++ = ']';
    }
    *out++ = ':';
    return std::to_chars(out, out + 5, port).ptr;
}

}  // namespace tcpscope
