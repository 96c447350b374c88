#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace tcpscope {

/// `count` and the word that fits it: "1 connection", "3 connections", "0 connections".
inline std::string plural(uint64_t count, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", count, count == 1 ? one : many);
}

/// `value` with its thousands grouped: "28,232".
inline std::string groupedDigits(uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string text;
    text.reserve(digits.size() + digits.size() / 3);
    for (size_t position = 0; position < digits.size(); ++position) {
        if (position > 0 && (digits.size() - position) % 3 == 0) {
            text += ',';
        }
        text += digits[position];
    }
    return text;
}

/// plural() with the thousands grouped, for what a person reads in a report: "28,232 connections".
inline std::string groupedPlural(uint64_t count, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", groupedDigits(count), count == 1 ? one : many);
}

}  // namespace tcpscope
