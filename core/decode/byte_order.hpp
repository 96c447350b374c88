#pragma once
// Unaligned loads of wire-format integers. memcpy compiles to a single load (plus bswap), and unlike
// a pointer cast it is defined for any alignment.
#include <cstdint>
#include <cstring>

namespace tcpscope {

/// Big-endian (network order) 16-bit value at `bytes`.
inline uint16_t loadBigEndian16(const uint8_t* bytes) {
    return static_cast<uint16_t>((bytes[0] << 8) | bytes[1]);
}

/// Big-endian (network order) 32-bit value at `bytes`.
inline uint32_t loadBigEndian32(const uint8_t* bytes) {
    uint32_t value = 0;
    std::memcpy(&value, bytes, sizeof value);
    return __builtin_bswap32(value);  // the decoder targets little-endian hosts (x86-64, AArch64)
}

/// Little-endian 32-bit value at `bytes`.
inline uint32_t loadLittleEndian32(const uint8_t* bytes) {
    uint32_t value = 0;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

}  // namespace tcpscope
