#pragma once
#include <cstdint>
#include <initializer_list>

#include <nlohmann/json.hpp>

namespace tcpscope {

/// Frame numbers as an evidence array, built in place (no std::vector<uint32_t> converted after).
inline nlohmann::json frameList(std::initializer_list<uint32_t> frames) {
    nlohmann::json::array_t list;
    list.reserve(frames.size());
    for (const uint32_t frame : frames) {
        list.emplace_back(frame);
    }
    return list;
}

}  // namespace tcpscope
