#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "strace/syscall_record.hpp"

namespace tcpscope {

/// Where ready fds are appended, with a cap per call.
struct ReadyFdSink {
    std::vector<ReadyFd>& out;
    size_t limit;      ///< most entries this call may add
    bool cut = false;  ///< set when entries were dropped (or strace printed "...")
    size_t added = 0;

    /// Adds one entry unless the cap is reached.
    void add(int32_t fd, uint8_t events);
};

/// poll/ppoll: the result annotation `([{fd=5, revents=POLLIN|POLLHUP}], left {...})`.
void parsePollReady(std::string_view annotation, ReadyFdSink& sink);

/// select/pselect6: the result annotation `(in [5 6], out [7], except [], left {...})`.
void parseSelectReady(std::string_view annotation, ReadyFdSink& sink);

/// epoll_wait/epoll_pwait/epoll_pwait2: the events argument in any of the formats strace has used:
/// `[{EPOLLIN, {u32=5, u64=5}}]` (old), `[{events=EPOLLIN, data={u32=5, u64=5}}]` (4.x to 6.x),
/// `[{events=EPOLLIN, data=0x5}]` (plain data value). The fd is the data's low 32 bits.
void parseEpollReady(std::string_view events, ReadyFdSink& sink);

/// One epoll_event struct (epoll_ctl's argument): its events as ReadyEvent bits and its data.
/// False if `text` is not a struct (an address, NULL).
bool parseEpollEvent(std::string_view text, uint8_t& events, uint64_t& data);

}  // namespace tcpscope
