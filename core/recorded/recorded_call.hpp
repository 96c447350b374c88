#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "decode/ip_address.hpp"

namespace tcpscope {

/// Which socket call a recorded event is (the values are those of bpf/syscall_event.h and of the
/// file format, docs/pcapng-blocks.md).
enum class RecordedCallName : uint16_t {
    write = 1, writev, sendto, sendmsg, read, readv, recvfrom, recvmsg, connect, accept, accept4,
    setsockopt, close, shutdown, epoll_wait, epoll_pwait, poll, ppoll, select, pselect6,
};
inline constexpr uint16_t kLastRecordedCallName = 20;

/// One system call recorded by `tcpscope-cli record`, as read back from its pcapng custom block.
struct RecordedCall {
    uint64_t enterNs = 0;  ///< CLOCK_MONOTONIC (bpf_ktime_get_ns) at entry
    uint64_t exitNs = 0;   ///< ... at return
    int64_t result = 0;    ///< the return value, or -errno
    int64_t sizeBytes = -1;  ///< bytes asked for; waits: maxevents or nfds; -1 unknown
    uint32_t pid = 0;      ///< process (tgid)
    uint32_t tid = 0;      ///< thread
    int32_t fd = -1;       ///< the fd argument (accept: the listener; epoll: the epoll fd)
    RecordedCallName name = RecordedCallName::write;
    bool hasSocket = false;  ///< the 4-tuple below was read from the socket in the kernel
    bool hasOption = false;  ///< setsockopt: optionValue was read
    uint16_t protocol = 0;   ///< IPPROTO_*
    Endpoint local;
    Endpoint remote;
    int32_t optionLevel = 0;  ///< setsockopt level; shutdown: how
    int32_t optionName = 0;
    int32_t optionValue = 0;  ///< SO_LINGER: l_linger, -1 when off
    std::string command;      ///< the thread's comm (valid UTF-8)
};

/// The two ends of a TCP connection: the calls made on it are those whose socket is either end.
struct ConnectionEnds {
    Endpoint client;
    Endpoint server;

    /// Whether `call` was made on a socket of this connection.
    [[nodiscard]] bool has(const RecordedCall& call) const {
        return call.hasSocket &&
               ((call.local == client && call.remote == server) || (call.local == server && call.remote == client));
    }
};

/// CLOCK_MONOTONIC (the events' clock) and CLOCK_REALTIME (the packets') read at one moment.
struct ClockSample {
    uint64_t monotonicNs = 0;
    int64_t realtimeNs = 0;  ///< since the epoch
};

/// What a recorded capture says of its system calls: the calls, the clock relation at the start
/// and the end of the recording, and the events the kernel could not hand over.
struct RecordedCalls {
    std::vector<RecordedCall> calls;
    std::vector<ClockSample> clock;  ///< in file order (start, end)
    uint64_t lostEvents = 0;         ///< ring buffer full (from the summary block)
    bool hasSummary = false;

    /// The realtime of a monotonic time, from the clock samples (interpolated between the first and
    /// last); the time unchanged when there is no sample.
    [[nodiscard]] int64_t realtimeNs(uint64_t monotonicNs) const;
};

}  // namespace tcpscope
