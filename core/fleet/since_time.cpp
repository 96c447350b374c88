#include "fleet/since_time.hpp"

#include <fmt/format.h>

#include <charconv>
#include <ctime>
#include <stdexcept>

namespace tcpscope {

namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

bool parseAll(std::string_view text, int64_t& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() && value >= 0;
}

}  // namespace

int64_t parseSinceTime(const std::string& text, int64_t nowNs) {
    const std::string_view view = text;
    int64_t number = 0;
    if (parseAll(view, number)) {
        return number * kSecondNs;
    }
    if (view.size() >= 2 && parseAll(view.substr(0, view.size() - 1), number)) {
        const char unit = view.back();
        const int64_t unitSeconds = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
        if (unitSeconds > 0) {
            return nowNs - number * unitSeconds * kSecondNs;
        }
    }
    std::tm utc{};
    int year = 0;
    char separator = 0;
    char zone = 0;
    const int fields = std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%c", &year, &utc.tm_mon, &utc.tm_mday,
                                   &separator, &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &zone);
    if ((fields == 7 || (fields == 8 && zone == 'Z')) && (separator == 'T' || separator == ' ') &&
        text.size() == (fields == 8 ? 20u : 19u)) {
        utc.tm_year = year - 1900;
        utc.tm_mon -= 1;
        return static_cast<int64_t>(timegm(&utc)) * kSecondNs;
    }
    throw std::invalid_argument(fmt::format(
        "'{}' is not a time: use 2026-11-27T18:00:00Z, epoch seconds, or a span back like 30m, 2h, 7d", text));
}

}  // namespace tcpscope
