#include "present/sequence_syscalls.hpp"

#include <algorithm>
#include <set>
#include <span>
#include <tuple>

namespace tcpscope {

namespace {

// The frame of the first segment that carried a write's bytes (or that a read consumed), or 0.
uint32_t firstSegmentFrame(const StraceAlignment& alignment, uint32_t socket, uint32_t record) {
    const CallLink* link = alignment.linkOf(socket, record);
    return link != nullptr && !link->frames.empty() ? *std::min_element(link->frames.begin(), link->frames.end())
                                                    : 0;
}

// The lifeline of one end of leg `leg`: a leg runs from lifeline `leg` (its client) to `leg + 1`.
size_t lifelineOf(size_t leg, Side side) {
    return leg + (side == Side::Server ? 1 : 0);
}

}  // namespace

std::vector<DiagramSyscall> diagramSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram) {
    std::vector<DiagramSyscall> syscalls;
    // (log, record, lifeline): a process at both ends of a proxy waits once, not once per socket.
    std::set<std::tuple<uint32_t, uint32_t, size_t>> seen;
    const auto add = [&](const TracedSocket& socket, uint32_t socketIndex, uint32_t record, size_t lifeline) {
        if (!seen.emplace(socket.log, record, lifeline).second) {
            return;
        }
        const StraceLog& log = alignment.logs[socket.log].log;
        const SyscallRecord& call = log.records[record];
        DiagramSyscall syscall;
        syscall.tsNs = alignment.captureTsNs(socket.log, call);
        syscall.durationNs = std::max<int64_t>(call.durationNs, 0);
        syscall.label = syscallShortLabel(log, call);
        syscall.lifeline = lifeline;
        syscall.call = &call;
        syscall.location = {socket.log, record};
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
            const size_t lifeline = lifelineOf(leg, socket.side);
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
    std::stable_sort(syscalls.begin(), syscalls.end(),
                     [](const DiagramSyscall& a, const DiagramSyscall& b) { return a.tsNs < b.tsNs; });
    return syscalls;
}

}  // namespace tcpscope
