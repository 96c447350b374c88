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

std::optional<uint32_t> syscallLaneSocketOf(const StraceAlignment& alignment, SyscallLocation location) {
    for (uint32_t index = 0; index < alignment.sockets.size(); ++index) {
        const TracedSocket& socket = alignment.sockets[index];
        if (socket.connection == kNoConnection || socket.log != location.log) {
            continue;
        }
        const std::vector<uint32_t> records = syscallLaneRecords(socket);
        if (std::binary_search(records.begin(), records.end(), location.record)) {
            return index;
        }
    }
    return std::nullopt;
}

std::optional<size_t> syscallLaneOf(const StraceAlignment& alignment, SyscallLocation location) {
    const std::optional<uint32_t> socket = syscallLaneSocketOf(alignment, location);
    if (!socket) {
        return std::nullopt;
    }
    const std::vector<uint32_t> sockets = syscallLaneSockets(alignment);  // ascending: the lane is its rank
    return static_cast<size_t>(std::lower_bound(sockets.begin(), sockets.end(), *socket) - sockets.begin());
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
