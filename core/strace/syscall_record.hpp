#pragma once
#include <cstdint>

#include "decode/ip_address.hpp"
#include "strace/syscall_name.hpp"

namespace tcpscope {

/// How a record was put together from strace's lines.
enum class CallSplit : uint8_t {
    Whole,           ///< one line
    Joined,          ///< "<unfinished ...>" joined with its "<... NAME resumed>" line
    UnfinishedOnly,  ///< "<unfinished ...>" that never resumed (the process exited, the log ended)
    ResumedOnly,     ///< "<... NAME resumed>" whose start is not in the log: arguments unknown
};

/// What the call returned.
enum class ReturnKind : uint8_t {
    Value,    ///< returnValue holds it
    Error,    ///< "-1 ENAME (...)": errnoCode holds the errno
    None,     ///< "= ?" (exit, exit_group, or a thread that ended inside the call)
    Missing,  ///< the line with the return value is not in the log
};

/// The socket option levels strace prints.
enum class SocketOptionLevel : uint8_t { None, Socket, Tcp, Ip, Ipv6, Other };

/// The socket options the analysis cares about.
enum class SocketOption : uint8_t {
    None,
    Other,
    TcpNodelay,
    TcpCork,
    TcpQuickack,
    TcpKeepidle,
    TcpKeepintvl,
    TcpKeepcnt,
    TcpUserTimeout,
    TcpNotsentLowat,
    SoLinger,
    SoReuseaddr,
    SoReuseport,
    SoKeepalive,
    SoSndbuf,
    SoRcvbuf,
    SoError,
};

/// Readiness bits of a ReadyFd (from POLLxxx or EPOLLxxx names).
enum ReadyEvent : uint8_t {
    kReadable = 1,     ///< POLLIN, POLLRDNORM, EPOLLIN, select "in"
    kWritable = 2,     ///< POLLOUT, POLLWRNORM, EPOLLOUT, select "out"
    kError = 4,        ///< POLLERR, POLLNVAL, EPOLLERR, select "except"
    kHangup = 8,       ///< POLLHUP, EPOLLHUP
    kPeerClosed = 16,  ///< POLLRDHUP, EPOLLRDHUP
    kPriority = 32,    ///< POLLPRI, EPOLLPRI
};

/// One fd a poll/select/epoll call reported ready. For epoll the "fd" is the low 32 bits of the
/// event's data, which programs almost always set to the fd (data.fd); SyscallRecord::epollData of
/// the matching epoll_ctl tells for sure.
struct ReadyFd {
    int32_t fd = -1;
    uint8_t events = 0;  ///< ReadyEvent bits
};

/// Bits of SyscallRecord::flags.
enum SyscallFlag : uint16_t {
    kPidInferred = 1,       ///< the line printed no pid; it was inferred (or is the default pid)
    kNonBlocking = 2,       ///< socket/accept4 with SOCK_NONBLOCK
    kSharesFdTable = 4,     ///< clone with CLONE_FILES: the child uses the parent's fds
    kThread = 8,            ///< clone with CLONE_THREAD
    kKilled = 16,           ///< ProcessExit: killed by `signal`
    kCoreDumped = 32,       ///< ProcessExit: "(core dumped)"
    kStopped = 64,          ///< Signal: "--- stopped by SIGSTOP ---"
    kHasOptionValue = 128,  ///< optionValue was printed (setsockopt, or getsockopt on success)
    kReadyListCut = 256,    ///< more ready fds than the parser keeps (or strace printed "...")
    kBytesPartial = 512,    ///< requestedBytes sums an iovec list strace cut short
    kHasAddress = 1024,     ///< `address` holds an IP endpoint strace printed
};

/// One traced event: a system call (joined if strace split it), a signal or a process exit.
/// Plain data; the strings it refers to (name, decorations, ready fds) live in its StraceLog.
struct SyscallRecord {
    static constexpr int64_t kUnknown = -1;
    static constexpr uint32_t kNoDecoration = UINT32_MAX;

    int64_t tsNs = 0;                   ///< entry time on the log's clock (StraceFormat::timeBase)
    int64_t durationNs = kUnknown;      ///< -T, else resumed time minus entry time for joined calls
    int64_t returnValue = 0;            ///< when returnKind is Value; ProcessExit: the exit status
    int64_t bytes = kUnknown;           ///< Write/Read: bytes transferred (the return, or the sum of msg_len)
    int64_t requestedBytes = kUnknown;  ///< Write/Read: bytes asked for (length argument, iov_len sum)
    int64_t optionValue = 0;            ///< set/getsockopt: [1] -> 1; SO_LINGER: l_linger, -1 when off; SO_ERROR: errno
    uint64_t epollData = 0;             ///< EpollCtl: the event's data (u64)
    Endpoint address;                   ///< connect/bind target, accept peer, get*name result, sendto/recvfrom peer
    int32_t pid = 0;                    ///< process or thread id (0: unknown)
    int32_t fd = -1;                    ///< the fd argument (epoll fd for Wait/EpollCtl on epoll)
    int32_t otherFd = -1;               ///< Socket/Accept/Dup: the new fd; EpollCtl: the target fd; SocketPair: 2nd fd
    int32_t backlog = -1;               ///< Listen: the backlog argument
    uint32_t fdDecoration = kNoDecoration;       ///< index into StraceLog::decorations for `fd`
    uint32_t otherFdDecoration = kNoDecoration;  ///< index into StraceLog::decorations for `otherFd`
    uint32_t readyBegin = 0;                     ///< Wait: first ready fd in StraceLog::readyFds
    uint32_t readyCount = 0;                     ///< Wait: number of ready fds
    uint32_t lineNumber = 0;                     ///< 1-based line of the (first) line in its file
    uint16_t fileIndex = 0;                      ///< index into StraceLog::files
    uint16_t dayWraps = 0;                       ///< TimeOfDay logs: midnights passed since the log's first line
    uint16_t flags = 0;                          ///< SyscallFlag bits
    SyscallName name = SyscallName::unknown;
    int16_t errnoCode = 0;  ///< when returnKind is Error (or "= ? ERESTARTSYS"): the errno number
    int16_t signal = 0;     ///< Signal: the signal; ProcessExit with kKilled: the killing signal
    uint16_t protocol = 0;  ///< Socket: IPPROTO_* number
    SyscallKind kind = SyscallKind::Other;
    CallSplit split = CallSplit::Whole;
    ReturnKind returnKind = ReturnKind::Missing;
    uint8_t family = 0;       ///< Socket: the domain; else the AF_* of `address` (0: none)
    uint8_t socketType = 0;   ///< Socket: SOCK_STREAM (1), SOCK_DGRAM (2), ... without flags
    uint8_t shutdownHow = 0;  ///< Shutdown: SHUT_RD 0, SHUT_WR 1, SHUT_RDWR 2
    uint8_t epollOp = 0;      ///< EpollCtl: EPOLL_CTL_ADD 1, DEL 2, MOD 3
    uint8_t epollEvents = 0;  ///< EpollCtl: the events asked for, as ReadyEvent bits
    SocketOptionLevel optionLevel = SocketOptionLevel::None;
    SocketOption option = SocketOption::None;

    /// True when the call returned a value (not an error, not "= ?", not lost).
    [[nodiscard]] bool succeeded() const { return returnKind == ReturnKind::Value; }
    /// True when the address field holds an IP endpoint.
    [[nodiscard]] bool hasAddress() const { return (flags & kHasAddress) != 0; }
    /// True if `flag` (a SyscallFlag) is set.
    [[nodiscard]] bool has(SyscallFlag flag) const { return (flags & flag) != 0; }
};

}  // namespace tcpscope
