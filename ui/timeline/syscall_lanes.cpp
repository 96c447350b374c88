#include "timeline/syscall_lanes.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "align/failed_connects.hpp"
#include "finding/wording.hpp"
#include "present/syscall_lanes.hpp"
#include "views/event_kind.hpp"

namespace tcpscope::ui {

namespace {

int64_t durationOf(const SyscallRecord& call) {
    return std::max<int64_t>(call.durationNs, 0);
}

}  // namespace

std::vector<TimelineLane> timelineSyscallLanes(const StraceAlignment& alignment) {
    std::vector<TimelineLane> lanes;
    for (const uint32_t index : syscallLaneSockets(alignment)) {
        const TracedSocket& socket = alignment.sockets[index];
        const StraceLog& log = alignment.logs[socket.log].log;
        TimelineLane lane;
        lane.label = fmt::format("pid {} fd {} syscalls", socket.pid, socket.fd);
        lane.attachedConnection = socket.connection;
        const std::vector<uint32_t> records = syscallLaneRecords(socket);
        lane.events.reserve(records.size());
        for (const uint32_t record : records) {
            const SyscallRecord& call = log.records[record];
            lane.events.push_back({alignment.captureTsNs(socket.log, call), durationOf(call),
                                   syscallShortLabel(log, call), eventKindOf(call)});
        }
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

TimelineLane failedCallsLane(std::span<const int64_t> timesNs, std::string label, const std::string& callLabel) {
    TimelineLane lane;
    lane.label = std::move(label);
    lane.events.reserve(timesNs.size());
    for (const int64_t tsNs : timesNs) {
        lane.events.push_back({tsNs, 0, callLabel, EventKind::Failed});
    }
    return lane;
}

std::vector<TimelineLane> timelineFailedConnectLanes(const StraceAlignment& alignment) {
    std::vector<TimelineLane> lanes;
    for (const FailedConnectCalls& failed : failedConnectsByServer(alignment)) {
        const std::string server = failed.server ? failed.server->toString() : std::string("an address not traced");
        lanes.push_back(failedCallsLane(
            failed.timesNs, fmt::format("failed connect() ×{} → {}", groupedDigits(failed.timesNs.size()), server),
            "connect() = -1 EADDRNOTAVAIL"));
    }
    return lanes;
}

}  // namespace tcpscope::ui
