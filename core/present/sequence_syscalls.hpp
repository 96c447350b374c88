#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "present/sequence_diagram.hpp"

namespace tcpscope {

/// Where a system call is in an alignment: its log and its record there.
struct SyscallLocation {
    uint32_t log = 0;     ///< index into StraceAlignment::logs
    uint32_t record = 0;  ///< index into that log's records
};

/// A system call the ladder draws beside a lifeline, and the Mermaid text writes as a note.
struct LadderSyscall {
    int64_t tsNs = 0;           ///< when it started, on the capture's clock
    int64_t durationNs = 0;     ///< how long it took (strace -T), 0 if unknown
    std::string label;          ///< syscallShortLabel(): "sendto 35 B", "epoll_wait 46.3 ms"
    size_t lifeline = 0;        ///< 0 client, 1 server (or proxy), 2 server of a proxy diagram
    const SyscallRecord* call = nullptr;  ///< the record (kind, result), owned by the alignment
    uint32_t segmentFrame = 0;  ///< a write: the frame of the first segment carrying its bytes (0: none)
    SyscallLocation location;
};

/// "sendto 35 B", "recvfrom 163 B", "epoll_wait 46.3 ms", "connect EINPROGRESS": a system call
/// as short as a lane or a lifeline has room for.
std::string syscallShortLabel(const StraceLog& log, const SyscallRecord& call);

/// The system calls of the traced processes at the ends of `diagram`'s connections, each on its
/// lifeline, in time order: the calls on the sockets, and the waits of the same process during
/// the sockets' lives (once per lifeline). Writes and reads name the frame of their first segment.
std::vector<LadderSyscall> ladderSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram);

/// The log and record of event `event` of lane `lane` of the timeline's syscall lanes (one lane
/// per traced socket tied to a connection, in the alignment's order; its calls and waits in
/// record order, as timelineSyscallLanes() builds them); nullopt if there is no such event.
std::optional<SyscallLocation> syscallOfLaneEvent(const StraceAlignment& alignment, size_t lane, size_t event);
/// The records a syscall lane of `socket` shows: its calls and the waits that reported it ready,
/// in record order without repeats.
std::vector<uint32_t> syscallLaneRecords(const TracedSocket& socket);

}  // namespace tcpscope
