#include "present/syscall_lanes.hpp"

#include <algorithm>

namespace tcpscope {

std::vector<uint32_t> syscallLaneSockets(const StraceAlignment& alignment) {
    std::vector<uint32_t> sockets;
    for (uint32_t index = 0; index < alignment.sockets.size(); ++index) {
        if (alignment.sockets[index].connection != kNoConnection) {
            sockets.push_back(index);
        }
    }
    return sockets;
}

std::vector<uint32_t> syscallLaneRecords(const TracedSocket& socket) {
    std::vector<uint32_t> records = socket.records;
    records.insert(records.end(), socket.waits.begin(), socket.waits.end());
    std::sort(records.begin(), records.end());
    records.erase(std::unique(records.begin(), records.end()), records.end());
    return records;
}

std::optional<size_t> syscallLaneOf(const StraceAlignment& alignment, SyscallLocation location) {
    const std::vector<uint32_t> sockets = syscallLaneSockets(alignment);
    for (size_t lane = 0; lane < sockets.size(); ++lane) {
        const TracedSocket& socket = alignment.sockets[sockets[lane]];
        if (socket.log != location.log) {
            continue;
        }
        const std::vector<uint32_t> records = syscallLaneRecords(socket);
        if (std::binary_search(records.begin(), records.end(), location.record)) {
            return lane;
        }
    }
    return std::nullopt;
}

std::optional<SyscallLocation> syscallOfLaneEvent(const StraceAlignment& alignment, size_t lane, size_t event) {
    const std::vector<uint32_t> sockets = syscallLaneSockets(alignment);
    if (lane >= sockets.size()) {
        return std::nullopt;
    }
    const TracedSocket& socket = alignment.sockets[sockets[lane]];
    const std::vector<uint32_t> records = syscallLaneRecords(socket);
    if (event >= records.size()) {
        return std::nullopt;
    }
    return SyscallLocation{socket.log, records[event]};
}

}  // namespace tcpscope
