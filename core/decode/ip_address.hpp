#pragma once
#include <array>
#include <bit>
#include <compare>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

namespace tcpscope {

/// An IPv4 or IPv6 address. IPv4 is kept in the IPv4-mapped IPv6 form (::ffff:a.b.c.d).
struct IpAddress {
    std::array<uint8_t, 16> bytes{};

    static IpAddress fromV4(const uint8_t* fourBytes);
    static IpAddress fromV6(const uint8_t* sixteenBytes);
    [[nodiscard]] bool isV4() const;
    /// True if this is an IPv4 address (the IPv4-mapped form); `value` is then a.b.c.d as the number
    /// a << 24 | b << 16 | c << 8 | d (so numbers order like the addresses).
    [[nodiscard]] bool v4Value(uint32_t& value) const {
        const uint64_t low = orderedWord(1);  // 00 00 ff ff a b c d for a.b.c.d
        if (word(0) != 0 || (low >> 32) != 0xffff) {
            return false;
        }
        value = static_cast<uint32_t>(low);
        return true;
    }
    /// "192.0.2.1" or "2001:db8::1" (RFC 5952 form).
    [[nodiscard]] std::string toString() const;

    /// Byte-wise order and equality, done as two 64-bit compares (the defaulted ones called memcmp,
    /// a tenth of the analysis time: every connection lookup and detector index compares addresses).
    friend bool operator==(const IpAddress& a, const IpAddress& b) {
        return a.word(0) == b.word(0) && a.word(1) == b.word(1);
    }
    friend std::strong_ordering operator<=>(const IpAddress& a, const IpAddress& b) {
        if (a.word(0) != b.word(0)) {
            return a.orderedWord(0) <=> b.orderedWord(0);
        }
        return a.orderedWord(1) <=> b.orderedWord(1);
    }

    /// Hashing for absl (and so for every hash map of the project keyed by addresses).
    template <typename H>
    friend H AbslHashValue(H state, const IpAddress& address) {
        return H::combine(std::move(state), address.bytes);
    }

private:
    // Bytes 8*half .. 8*half+7, as stored (for equality) and big-endian (compares like the bytes).
    [[nodiscard]] uint64_t word(int half) const {
        uint64_t value = 0;
        std::memcpy(&value, bytes.data() + 8 * half, sizeof value);
        return value;
    }
    [[nodiscard]] uint64_t orderedWord(int half) const {
        const uint64_t value = word(half);
        if constexpr (std::endian::native == std::endian::little) {
            return __builtin_bswap64(value);
        } else {
            return value;
        }
    }
};

/// An address and a TCP port.
struct Endpoint {
    IpAddress address;
    uint16_t port = 0;

    /// Room writeText() needs: "[" + the longest IPv6 text + "]:65535".
    static constexpr size_t kTextCapacity = 56;

    /// "192.0.2.1:80" or "[2001:db8::1]:80".
    [[nodiscard]] std::string toString() const;
    /// toString()'s text written at `out` (room for kTextCapacity bytes), without a string on the
    /// heap; returns the end.
    char* writeText(char* out) const;

    auto operator<=>(const Endpoint&) const = default;

    template <typename H>
    friend H AbslHashValue(H state, const Endpoint& endpoint) {
        return H::combine(std::move(state), endpoint.address, endpoint.port);
    }
};

}  // namespace tcpscope
