#pragma once
#include <cstdint>

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

}  // namespace tcpscope::ui
