#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "align/strace_alignment.hpp"
#include "present/sequence_diagram.hpp"
#include "present/traced_call.hpp"

namespace tcpscope {

/// A system call the sequence diagram draws beside a lifeline, and the Mermaid text writes as a note.
struct DiagramSyscall {
    int64_t tsNs = 0;           ///< when it started, on the capture's clock
    int64_t durationNs = 0;     ///< how long it took (strace -T), 0 if unknown
    std::string label;          ///< syscallShortLabel(): "sendto 35 B", "epoll_wait 46.3 ms"
    size_t lifeline = 0;        ///< 0 client, 1 server (or proxy), 2 server of a proxy diagram
    const SyscallRecord* call = nullptr;  ///< the record (kind, result), owned by the alignment
    uint32_t segmentFrame = 0;  ///< a write: the frame of the first segment carrying its bytes (0: none)
    SyscallLocation location;
};

/// The system calls of the traced processes at the ends of `diagram`'s connections, each on its
/// lifeline, in time order: the calls on the sockets, and the waits of the same process during
/// the sockets' lives (once per lifeline). Writes and reads name the frame of their first segment.
std::vector<DiagramSyscall> diagramSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram);

}  // namespace tcpscope
