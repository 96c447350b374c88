#include "align/strace_time_zone.hpp"

#include <algorithm>
#include <charconv>

namespace tcpscope {

namespace {
// Reads 1 or 2 digits at `text[at]`; nullopt if there are none or more.
std::optional<int> twoDigits(std::string_view text, size_t& at) {
    int value = 0;
    const char* begin = text.data() + at;
    const char* end = text.data() + std::min(text.size(), at + 2);
    const auto [next, error] = std::from_chars(begin, end, value);
    if (error != std::errc() || next == begin) {
        return std::nullopt;
    }
    at += static_cast<size_t>(next - begin);
    return value;
}
}  // namespace

std::optional<int> parseTimeZoneOffset(std::string_view text) {
    if (text == "UTC" || text == "Z") {
        return 0;
    }
    if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) {
        return std::nullopt;
    }
    size_t at = 1;
    const std::optional<int> hours = twoDigits(text, at);
    int minutes = 0;
    if (!hours || *hours > 14) {
        return std::nullopt;
    }
    if (at < text.size()) {
        if (text[at] != ':') {
            return std::nullopt;
        }
        ++at;
        const size_t minutesStart = at;
        const std::optional<int> parsed = twoDigits(text, at);
        if (!parsed || at - minutesStart != 2 || *parsed >= 60 || at != text.size()) {
            return std::nullopt;
        }
        minutes = *parsed;
    }
    return (text[0] == '-' ? -1 : 1) * (*hours * 60 + minutes);
}

}  // namespace tcpscope
