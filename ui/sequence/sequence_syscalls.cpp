#include "sequence/sequence_syscalls.hpp"

#include <utility>

#include "present/sequence_syscalls.hpp"
#include "views/event_kind.hpp"

namespace tcpscope::ui {

std::vector<SequenceSyscall> sequenceSyscalls(const StraceAlignment& alignment, const SequenceDiagram& diagram) {
    std::vector<SequenceSyscall> syscalls;
    for (const LadderSyscall& ladder : ladderSyscalls(alignment, diagram)) {
        SequenceSyscall syscall;
        syscall.tsNs = ladder.tsNs;
        syscall.durationNs = ladder.durationNs;
        syscall.label = QString::fromStdString(ladder.label);
        syscall.lifeline = static_cast<int>(ladder.lifeline);
        syscall.kind = eventKindOf(*ladder.call);
        syscall.segmentFrame = ladder.segmentFrame;
        syscall.location = ladder.location;
        syscalls.push_back(std::move(syscall));
    }
    return syscalls;
}

}  // namespace tcpscope::ui
