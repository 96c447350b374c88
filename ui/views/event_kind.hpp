#pragma once
#include <cstdint>

#include "strace/syscall_record.hpp"

namespace tcpscope::ui {

/// What an event of a syscall lane or lifeline is, for its colour: the calls that move bytes
/// stand apart from waiting and from the rest.
enum class EventKind : uint8_t {
    Other,   ///< socket, connect, accept, close, setsockopt, ...
    Write,   ///< bytes handed to the kernel
    Read,    ///< bytes taken from the kernel
    Wait,    ///< poll, select, epoll_wait: the process blocked
    Failed,  ///< a call that returned an error
};

/// The kind of a traced call, as a syscall lane and a lifeline colour it.
EventKind eventKindOf(const SyscallRecord& call);

}  // namespace tcpscope::ui
