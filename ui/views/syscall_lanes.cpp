#include "views/syscall_lanes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <span>
#include <tuple>

#include "strace/errno_names.hpp"
#include "strace/socket_constants.hpp"

namespace tcpscope::ui {

namespace {

EventKind eventKindOf(const SyscallRecord& call) {
    if (call.returnKind == ReturnKind::Error) {
        return EventKind::Failed;
    }
    switch (call.kind) {
        case SyscallKind::Write: return EventKind::Write;
        case SyscallKind::Read: return EventKind::Read;
        case SyscallKind::Wait: return EventKind::Wait;
        default: return EventKind::Other;
    }
}

int64_t durationOf(const SyscallRecord& call) {
    return std::max<int64_t>(call.durationNs, 0);
}

// The frame of the first segment that carried a write's bytes (or that a read consumed), or 0.
uint32_t firstSegmentFrame(const StraceAlignment& alignment, uint32_t socket, uint32_t record) {
    const CallLink* link = alignment.linkOf(socket, record);
    return link != nullptr && !link->frames.empty() ? *std::min_element(link->frames.begin(), link->frames.end())
                                                    : 0;
}

// The lifeline of one end of leg `leg`: a leg runs from lifeline `leg` (its client) to `leg + 1`.
int lifelineOf(size_t leg, Side side) {
    return static_cast<int>(leg) + (side == Side::Server ? 1 : 0);
}

}  // namespace

std::string syscallShortLabel(const StraceLog& log, const SyscallRecord& call) {
    const std::string_view name = log.nameOf(call);
    if (call.returnKind == ReturnKind::Error) {
        const std::string_view error = errnoName(call.errnoCode);
        return fmt::format("{} {}", name, error.empty() ? std::string_view("failed") : error);
    }
    switch (call.kind) {
        case SyscallKind::Write:
        case SyscallKind::Read:
            if (call.bytes >= 0) {
                return fmt::format("{} {} B", name, call.bytes);
            }
            break;
        case SyscallKind::Wait:
            if (call.durationNs >= 1'000'000) {  // only a wait that blocked long enough to matter
                return fmt::format("{} {:.1f} ms", name, static_cast<double>(call.durationNs) / 1e6);
            }
            break;
        case SyscallKind::SetSockOpt:
            if (call.option != SocketOption::None && call.option != SocketOption::Other) {
                return fmt::format("{} {}={}", name, socketOptionName(call.option), call.optionValue);
            }
            break;
        default: break;
    }
    return std::string(name);
}

std::vector<TimelineLane> timelineSyscallLanes(const StraceAlignment& alignment) {
    std::vector<TimelineLane> lanes;
    for (uint32_t index = 0; index < alignment.sockets.size(); ++index) {
        const TracedSocket& socket = alignment.sockets[index];
        if (socket.connection == kNoConnection) {
            continue;
        }
        const StraceLog& log = alignment.logs[socket.log].log;
        TimelineLane lane;
        lane.label = fmt::format("pid {} fd {} syscalls", socket.pid, socket.fd);
        lane.attachedConnection = socket.connection;
        std::vector<uint32_t> records = socket.records;
        records.insert(records.end(), socket.waits.begin(), socket.waits.end());
        std::sort(records.begin(), records.end());
        records.erase(std::unique(records.begin(), records.end()), records.end());
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

std::vector<SequenceSyscall> sequenceSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram) {
    std::vector<SequenceSyscall> syscalls;
    // (log, record, lifeline): a process at both ends of a proxy waits once, not once per socket.
    std::set<std::tuple<uint32_t, uint32_t, int>> seen;
    const auto add = [&](const TracedSocket& socket, uint32_t socketIndex, uint32_t record, int lifeline) {
        if (!seen.emplace(socket.log, record, lifeline).second) {
            return;
        }
        const StraceLog& log = alignment.logs[socket.log].log;
        const SyscallRecord& call = log.records[record];
        SequenceSyscall syscall;
        syscall.tsNs = alignment.captureTsNs(socket.log, call);
        syscall.durationNs = durationOf(call);
        syscall.label = QString::fromStdString(syscallShortLabel(log, call));
        syscall.lifeline = lifeline;
        syscall.kind = eventKindOf(call);
        if (call.kind == SyscallKind::Write) {
            syscall.segmentFrame = firstSegmentFrame(alignment, socketIndex, record);
        }
        syscalls.push_back(std::move(syscall));
    };
    const std::vector<uint32_t>& legs = diagram.connections();
    for (size_t leg = 0; leg < legs.size(); ++leg) {
        if (legs[leg] >= alignment.connectionSockets.size()) {
            continue;
        }
        for (const uint32_t socketIndex : alignment.connectionSockets[legs[leg]]) {
            const TracedSocket& socket = alignment.sockets[socketIndex];
            const int lifeline = lifelineOf(leg, socket.side);
            for (const uint32_t record : socket.records) {
                add(socket, socketIndex, record, lifeline);
            }
            // The waits of the same process while the socket was open: where it blocked between
            // its reads and writes (epoll_wait after the second write of a Nagle stall).
            const StraceLog& log = alignment.logs[socket.log].log;
            const int64_t openTs = socket.records.empty() ? socket.openTsNs : log.records[socket.records.front()].tsNs;
            const int64_t closeTs = socket.records.empty() ? socket.closeTsNs : log.records[socket.records.back()].tsNs;
            const std::span<const uint32_t> ofPid = log.recordIndexesOf(socket.pid);
            auto record = std::lower_bound(ofPid.begin(), ofPid.end(), openTs, [&log](uint32_t index, int64_t ts) {
                return log.records[index].tsNs < ts;
            });
            for (; record != ofPid.end() && log.records[*record].tsNs <= closeTs; ++record) {
                if (log.records[*record].kind == SyscallKind::Wait) {
                    add(socket, socketIndex, *record, lifeline);
                }
            }
        }
    }
    return syscalls;
}

}  // namespace tcpscope::ui
