#include "dissect/hex_dump.hpp"

#include <fmt/format.h>

namespace tcpscope::dissect {

namespace {
bool printable(uint8_t byte) {
    return byte >= 0x20 && byte < 0x7F;
}
}  // namespace

std::vector<std::string> hexDumpLines(std::span<const uint8_t> bytes, uint64_t firstOffset, int offsetDigits) {
    std::vector<std::string> lines;
    lines.reserve((bytes.size() + kHexDumpBytesPerLine - 1) / kHexDumpBytesPerLine);
    if (offsetDigits <= 0) {
        offsetDigits = firstOffset + bytes.size() > 0x10000 ? 8 : 4;
    }
    for (size_t start = 0; start < bytes.size(); start += kHexDumpBytesPerLine) {
        std::string line = fmt::format("{:0{}x}  ", firstOffset + start, offsetDigits);
        std::string ascii;
        for (size_t column = 0; column < kHexDumpBytesPerLine; ++column) {
            if (start + column < bytes.size()) {
                const uint8_t byte = bytes[start + column];
                line += fmt::format("{:02x} ", byte);
                ascii.push_back(printable(byte) ? static_cast<char>(byte) : '.');
            } else {
                line += "   ";
            }
        }
        line += "  ";
        lines.push_back(line + ascii);
    }
    return lines;
}

std::string printableText(std::span<const uint8_t> bytes) {
    std::string text;
    text.reserve(bytes.size());
    for (const uint8_t byte : bytes) {
        const bool kept = printable(byte) || byte == '\n' || byte == '\r' || byte == '\t';
        text.push_back(kept ? static_cast<char>(byte) : '.');
    }
    return text;
}

}  // namespace tcpscope::dissect
