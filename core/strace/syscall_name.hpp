#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace tcpscope {

/// What a traced event means for the alignment with packets. Several syscall names share a kind
/// (write, send, sendto, sendmsg, writev are all Write).
enum class SyscallKind : uint8_t {
    Other,       ///< a call that does not matter to TCP analysis (mmap, openat, futex, ...)
    Socket,      ///< socket(): the new fd is SyscallRecord::otherFd
    SocketPair,  ///< socketpair(): fd and otherFd are the pair
    Connect,
    Accept,  ///< accept/accept4: fd is the listener, otherFd the new connection
    Bind,
    Listen,
    Close,
    Shutdown,
    SetSockOpt,
    GetSockOpt,
    GetSockName,    ///< address is the local end
    GetPeerName,    ///< address is the remote end
    Write,          ///< write, send, sendto, sendmsg, sendmmsg, writev, sendfile
    Read,           ///< read, recv, recvfrom, recvmsg, recvmmsg, readv
    Wait,           ///< poll, ppoll, select, pselect6, epoll_wait, epoll_pwait, epoll_pwait2
    EpollCtl,       ///< fd is the epoll fd, otherFd the fd added, changed or removed
    Dup,            ///< dup, dup2, dup3, fcntl(F_DUPFD*): otherFd is the copy
    ProcessCreate,  ///< clone, clone3, fork, vfork: returnValue is the child's pid
    Exec,           ///< execve, execveat
    Signal,         ///< a "--- SIGxxx {...} ---" line
    ProcessExit,    ///< a "+++ exited with N +++" or "+++ killed by SIGxxx +++" line
};

// The syscall names the parser knows, with their kind. Names not listed are interned per log.
// clang-format off
#define TCPSCOPE_STRACE_SYSCALLS(X) \
    X(socket, Socket) X(socketpair, SocketPair) X(connect, Connect) X(accept, Accept)                      \
    X(accept4, Accept) X(bind, Bind) X(listen, Listen) X(close, Close)                                     \
    X(shutdown, Shutdown) X(setsockopt, SetSockOpt) X(getsockopt, GetSockOpt) X(getsockname, GetSockName)  \
    X(getpeername, GetPeerName) X(write, Write) X(send, Write) X(sendto, Write)                            \
    X(sendmsg, Write) X(sendmmsg, Write) X(writev, Write) X(sendfile, Write)                               \
    X(sendfile64, Write) X(read, Read) X(recv, Read) X(recvfrom, Read)                                     \
    X(recvmsg, Read) X(recvmmsg, Read) X(readv, Read) X(poll, Wait)                                        \
    X(ppoll, Wait) X(select, Wait) X(_newselect, Wait) X(pselect6, Wait)                                   \
    X(epoll_wait, Wait) X(epoll_pwait, Wait) X(epoll_pwait2, Wait) X(epoll_ctl, EpollCtl)                  \
    X(dup, Dup) X(dup2, Dup) X(dup3, Dup) X(fcntl, Dup)                                                    \
    X(fcntl64, Dup) X(clone, ProcessCreate) X(clone3, ProcessCreate) X(fork, ProcessCreate)                \
    X(vfork, ProcessCreate) X(execve, Exec) X(execveat, Exec) X(exit, Other)                               \
    X(exit_group, Other) X(epoll_create, Other) X(epoll_create1, Other)
// clang-format on

/// A syscall name interned to a number. The enumerators are the known names; values from
/// kFirstDynamicSyscallName up are names met in a log, spelled out by StraceLog::nameOf().
enum class SyscallName : uint16_t {
    unknown,  ///< no name: signal and exit lines, or a name the log's table had no room for
#define TCPSCOPE_STRACE_ENUMERATOR(name, kind) name,
    TCPSCOPE_STRACE_SYSCALLS(TCPSCOPE_STRACE_ENUMERATOR)
#undef TCPSCOPE_STRACE_ENUMERATOR
};

/// The first number given to names outside the known list.
inline constexpr uint16_t kFirstDynamicSyscallName = static_cast<uint16_t>(SyscallName::epoll_create1) + 1;

/// The known name for `text` ("sendto" -> SyscallName::sendto), or nullopt.
std::optional<SyscallName> knownSyscallName(std::string_view text);
/// The text of a known name; "" for dynamic names (ask the log) and for `unknown`.
std::string_view knownSyscallNameText(SyscallName name);
/// The kind a known name belongs to; Other for dynamic names.
SyscallKind syscallKindOf(SyscallName name);
/// "write", "wait", "process_exit", ...: the kind as a lower-case word for reports.
std::string_view syscallKindName(SyscallKind kind);

}  // namespace tcpscope
