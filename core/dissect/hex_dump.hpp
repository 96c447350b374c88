#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tcpscope::dissect {

/// Bytes on one line of hexDumpLines().
inline constexpr size_t kHexDumpBytesPerLine = 16;

/// Wireshark's hex dump of `bytes` as `tshark -x` prints it, one line per 16 bytes: the offset (4
/// hex digits, 8 past 64 KiB), the bytes in hex, then the same bytes as ASCII with a dot for a
/// byte that is not printable. `firstOffset` is the offset shown on the first line; `offsetDigits`
/// fixes the offset's width (0: 4, or 8 past 64 KiB; Follow TCP Stream's hex dump uses 8).
std::vector<std::string> hexDumpLines(std::span<const uint8_t> bytes, uint64_t firstOffset = 0, int offsetDigits = 0);

/// `bytes` as text, a dot for each byte that is not printable ASCII (tab, CR and LF kept).
std::string printableText(std::span<const uint8_t> bytes);

}  // namespace tcpscope::dissect
