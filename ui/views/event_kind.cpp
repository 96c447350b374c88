#include "views/event_kind.hpp"

namespace tcpscope::ui {

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

}  // namespace tcpscope::ui
