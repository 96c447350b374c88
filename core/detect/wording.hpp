#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace tcpscope {

/// `count` and the word that fits it: "1 connection", "3 connections", "0 connections".
inline std::string plural(uint64_t count, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", count, count == 1 ? one : many);
}

}  // namespace tcpscope
