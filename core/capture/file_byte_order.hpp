#pragma once
#include <cstdint>
#include <cstring>

namespace tcpscope {

/// Loads of unaligned integers from capture data, in the file's byte order. `swapped` is true when
/// the file was written on a machine of the other byte order than this one.
namespace byteorder {

/// A 16-bit value at `bytes`, byte-swapped when `swapped`.
inline uint16_t load16(const uint8_t* bytes, bool swapped) {
    uint16_t value;
    std::memcpy(&value, bytes, sizeof value);
    return swapped ? __builtin_bswap16(value) : value;
}

/// A 32-bit value at `bytes`, byte-swapped when `swapped`.
inline uint32_t load32(const uint8_t* bytes, bool swapped) {
    uint32_t value;
    std::memcpy(&value, bytes, sizeof value);
    return swapped ? __builtin_bswap32(value) : value;
}

/// A 64-bit value at `bytes`, byte-swapped when `swapped`.
inline uint64_t load64(const uint8_t* bytes, bool swapped) {
    uint64_t value;
    std::memcpy(&value, bytes, sizeof value);
    return swapped ? __builtin_bswap64(value) : value;
}

/// A 32-bit big-endian value, as a hex dump shows the first bytes of a file.
inline uint32_t loadBigEndian32(const uint8_t* bytes) {
    return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) | bytes[3];
}

}  // namespace byteorder
}  // namespace tcpscope
