#pragma once
// Small string_view scanning helpers shared by the strace parser files. No allocation, no locale.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace tcpscope::strace_text {

/// True for '0'..'9'.
constexpr bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

/// True for the characters strace uses in syscall names ("epoll_pwait2", "_newselect").
constexpr bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || isDigit(c) || c == '_' || (c >= 'A' && c <= 'Z');
}

/// `text` without leading spaces and tabs.
constexpr std::string_view trimLeft(std::string_view text) {
    size_t start = 0;
    while (start < text.size() && (text[start] == ' ' || text[start] == '\t')) {
        ++start;
    }
    return text.substr(start);
}

/// `text` without trailing spaces, tabs, CR and LF.
constexpr std::string_view trimRight(std::string_view text) {
    size_t end = text.size();
    while (end > 0 &&
           (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r' || text[end - 1] == '\n')) {
        --end;
    }
    return text.substr(0, end);
}

/// `text` without surrounding blanks.
constexpr std::string_view trim(std::string_view text) {
    return trimRight(trimLeft(text));
}

/// Parses the integer at the start of `text`: decimal, or hex with "0x"; a leading '-' is allowed.
/// Returns the characters used (0 if there is no number; the value then stays untouched).
inline size_t parseLeadingInteger(std::string_view text, int64_t& value) {
    size_t position = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) {
        position = 1;
    }
    int base = 10;
    if (text.size() >= position + 3 && text[position] == '0' &&
        (text[position + 1] == 'x' || text[position + 1] == 'X')) {
        base = 16;
        position += 2;
    }
    uint64_t magnitude = 0;
    const char* first = text.data() + position;
    const auto [end, error] = std::from_chars(first, text.data() + text.size(), magnitude, base);
    if (error != std::errc() || end == first) {
        return 0;
    }
    // Hex values above INT64_MAX (addresses, masks) keep their bits; decimal ones must fit.
    if (base == 10 && magnitude > static_cast<uint64_t>(INT64_MAX)) {
        return 0;
    }
    const auto bits = static_cast<int64_t>(magnitude);
    value = negative ? -bits : bits;
    return static_cast<size_t>(end - text.data());
}

/// Parses `text` (surrounding blanks allowed) as exactly one integer.
inline std::optional<int64_t> parseInteger(std::string_view text) {
    text = trim(text);
    int64_t value = 0;
    const size_t used = parseLeadingInteger(text, value);
    if (used == 0 || used != text.size()) {
        return std::nullopt;
    }
    return value;
}

/// Parses the unsigned decimal or 0x-hex number at the start of `text` (epoll data, u64 values).
inline size_t parseLeadingUnsigned(std::string_view text, uint64_t& value) {
    int base = 10;
    size_t position = 0;
    if (text.size() >= 3 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        position = 2;
    }
    const char* first = text.data() + position;
    const auto [end, error] = std::from_chars(first, text.data() + text.size(), value, base);
    if (error != std::errc() || end == first) {
        return 0;
    }
    return static_cast<size_t>(end - text.data());
}

/// The number after the first `key` in `text` (for "sin_port=htons(" or "u32="), if any.
inline std::optional<uint64_t> unsignedAfter(std::string_view text, std::string_view key) {
    const size_t at = text.find(key);
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    uint64_t value = 0;
    if (parseLeadingUnsigned(text.substr(at + key.size()), value) == 0) {
        return std::nullopt;
    }
    return value;
}

/// Index just past the closing quote of the C string starting at `text[open]` ('"'); text.size()
/// if it is not closed. Backslash escapes are skipped.
inline size_t skipQuoted(std::string_view text, size_t open) {
    size_t position = open + 1;
    while (position < text.size()) {
        // memchr finds the candidates fast; a quote preceded by an odd run of backslashes is escaped.
        const void* found = std::memchr(text.data() + position, '"', text.size() - position);
        if (found == nullptr) {
            return text.size();
        }
        const auto quote = static_cast<size_t>(static_cast<const char*>(found) - text.data());
        size_t backslashes = 0;
        while (quote - backslashes > open + 1 && text[quote - backslashes - 1] == '\\') {
            ++backslashes;
        }
        if (backslashes % 2 == 0) {
            return quote + 1;
        }
        position = quote + 1;
    }
    return text.size();
}

}  // namespace tcpscope::strace_text
