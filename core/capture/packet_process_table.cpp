#include "capture/packet_process_table.hpp"

#include <utility>

namespace tcpscope {

const PacketProcess* PacketProcessTable::find(std::string_view key) {
    if (last_ != nullptr && key == lastKey_) {
        return last_;
    }
    const auto found = byKey_.find(key);
    if (found == byKey_.end()) {
        return nullptr;
    }
    lastKey_.assign(key);
    last_ = found->second;
    return last_;
}

const PacketProcess* PacketProcessTable::add(std::string_view key, PacketProcess process) {
    if (processes_.size() >= kMaxProcesses) {
        return nullptr;
    }
    const PacketProcess* kept = &processes_.emplace_back(std::move(process));
    byKey_.emplace(std::string(key), kept);
    lastKey_.assign(key);
    last_ = kept;
    return kept;
}

}  // namespace tcpscope
