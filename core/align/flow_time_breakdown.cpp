#include "align/flow_time_breakdown.hpp"

#include <algorithm>

namespace tcpscope {

namespace {

constexpr int64_t kHeldNs = 1'000'000;  // a write whose bytes left later than this was held back

struct Interval {
    int64_t begin = 0;
    int64_t end = 0;
};

// Sorted, non-overlapping.
std::vector<Interval> merged(std::vector<Interval> intervals) {
    std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
    std::vector<Interval> out;
    for (const Interval& interval : intervals) {
        if (!out.empty() && interval.begin <= out.back().end) {
            out.back().end = std::max(out.back().end, interval.end);
        } else {
            out.push_back(interval);
        }
    }
    return out;
}

int64_t overlapNs(const std::vector<Interval>& sorted, const Interval& with) {
    int64_t total = 0;
    auto it = std::lower_bound(sorted.begin(), sorted.end(), with.begin,
                               [](const Interval& interval, int64_t ts) { return interval.end < ts; });
    for (; it != sorted.end() && it->begin < with.end; ++it) {
        total += std::max<int64_t>(0, std::min(it->end, with.end) - std::max(it->begin, with.begin));
    }
    return total;
}

}  // namespace

FlowTimeBreakdown flowTimeBreakdown(const StraceAlignment& alignment, uint32_t connection) {
    FlowTimeBreakdown breakdown;
    if (connection >= alignment.connectionSockets.size()) {
        return breakdown;
    }
    for (uint32_t socketIndex : alignment.connectionSockets[connection]) {
        const TracedSocket& socket = alignment.sockets[socketIndex];
        const StraceLog& log = alignment.logs[socket.log].log;
        // When the process's written bytes sat in its kernel.
        std::vector<Interval> held;
        for (uint32_t record : socket.records) {
            const SyscallRecord& call = log.records[record];
            const CallLink* link = alignment.linkOf(socketIndex, record);
            if (call.kind != SyscallKind::Write || link == nullptr || link->firstSegmentTsNs == 0) {
                continue;
            }
            const int64_t writtenNs = alignment.captureTsNs(socket.log, call);
            const int64_t holdNs = std::max<int64_t>(0, link->firstSegmentTsNs - writtenNs);
            breakdown.kernelHeldNs += holdNs;
            breakdown.heldWrites += holdNs > kHeldNs ? 1 : 0;
            held.push_back({writtenNs, writtenNs + holdNs});
        }
        held = merged(std::move(held));
        // Waits that this socket ended, and reads on it: the process blocked for this connection.
        std::vector<uint32_t> blocking = socket.waits;
        for (uint32_t record : socket.records) {
            if (log.records[record].kind == SyscallKind::Read) {
                blocking.push_back(record);
            }
        }
        for (uint32_t record : blocking) {
            const SyscallRecord& call = log.records[record];
            if (call.durationNs < 0) {
                ++breakdown.callsWithoutDuration;
                continue;
            }
            ++breakdown.blockingCalls;
            const int64_t begin = alignment.captureTsNs(socket.log, call);
            const int64_t whileHeld = overlapNs(held, {begin, begin + call.durationNs});
            breakdown.blockedNs += call.durationNs;
            breakdown.blockedWhileHeldNs += whileHeld;
            breakdown.blockedOnPeerNs += call.durationNs - whileHeld;
        }
    }
    return breakdown;
}

}  // namespace tcpscope
