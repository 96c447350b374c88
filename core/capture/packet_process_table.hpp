#pragma once
#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "capture/packet_process.hpp"

namespace tcpscope {

/// The distinct processes one reader has met, each under the bytes the file describes it with (a
/// comment's text, a pktap header's process fields). Each keeps its address while the table lives,
/// so a packet points at its process instead of holding a copy.
class PacketProcessTable {
public:
    /// The process kept under `key`, or null. A capture's packets come in runs of one process, so
    /// the last key found is compared first.
    const PacketProcess* find(std::string_view key);
    /// Keeps `process` under `key` and returns it; null when the table is full (kMaxProcesses).
    const PacketProcess* add(std::string_view key, PacketProcess process);
    [[nodiscard]] size_t size() const { return processes_.size(); }

    /// More distinct processes than this in one file are taken for garbage: later ones are not kept.
    static constexpr size_t kMaxProcesses = 65536;

private:
    struct KeyHash {
        using is_transparent = void;
        size_t operator()(std::string_view key) const { return std::hash<std::string_view>{}(key); }
    };
    std::deque<PacketProcess> processes_;
    std::unordered_map<std::string, const PacketProcess*, KeyHash, std::equal_to<>> byKey_;
    std::string lastKey_;
    const PacketProcess* last_ = nullptr;
};

}  // namespace tcpscope
