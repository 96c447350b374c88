#include "sequence/sequence_syscalls.hpp"

#include <utility>

#include "present/sequence_syscalls.hpp"
#include "views/event_kind.hpp"

namespace tcpscope::ui {

std::vector<SequenceSyscall> sequenceSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram) {
    std::vector<SequenceSyscall> syscalls;
    for (const DiagramSyscall& call : diagramSyscalls(alignment, diagram)) {
        SequenceSyscall syscall;
        syscall.tsNs = call.tsNs;
        syscall.durationNs = call.durationNs;
        syscall.label = QString::fromStdString(call.label);
        syscall.lifeline = static_cast<int>(call.lifeline);
        syscall.kind = eventKindOf(*call.call);
        syscall.segmentFrame = call.segmentFrame;
        syscall.location = call.location;
        syscalls.push_back(std::move(syscall));
    }
    return syscalls;
}

}  // namespace tcpscope::ui
