#pragma once
#include <cstdint>
#include <vector>

#include "decode/ip_address.hpp"
#include "strace/strace_log.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// How a traced socket was tied to a captured connection.
enum class SocketMatch : uint8_t {
    None,        ///< not tied to any connection of the capture
    Decoration,  ///< both endpoints from strace -yy decorations
    Connect,     ///< the connect() address and the time of the SYN
    Accept,      ///< the accept() peer address and the time of the handshake
};
/// "none", "yy", "connect", "accept".
const char* socketMatchName(SocketMatch match);

/// One TCP socket of a traced process: an fd from the call that made it (socket, accept, or the
/// first call that shows it) to its close, with everything the log says about its endpoints
/// and options, and the records that used it.
struct TracedSocket {
    uint32_t log = 0;                  ///< which strace log
    int32_t pid = 0;                   ///< the process (or thread) that made it
    int32_t fdTable = 0;               ///< the pid whose fd table it lives in (threads share their parent's)
    int32_t fd = -1;
    int64_t openTsNs = 0;              ///< on the log's clock
    int64_t closeTsNs = INT64_MAX;     ///< on the log's clock; INT64_MAX while open at the end of the log
    bool seenFromStart = false;        ///< made by socket/accept in the log: byte counts start at the stream's start
    bool listening = false;
    bool hasLocal = false;
    bool hasRemote = false;
    Endpoint local;
    Endpoint remote;
    bool connectCalled = false;
    bool acceptedHere = false;         ///< the fd was returned by accept()
    bool nodelaySet = false;           ///< TCP_NODELAY set to 1 at some point
    int64_t nodelayTsNs = 0;           ///< when (log clock)
    bool corkUsed = false;
    bool quickackUsed = false;
    std::vector<uint32_t> records;     ///< indexes into StraceLog::records of calls on this fd, in time order
    std::vector<uint32_t> waits;       ///< Wait records that reported this fd ready

    // Filled by the matching step.
    uint32_t connection = kNoConnection;
    Side side = Side::Client;          ///< which end of the connection this process is
    SocketMatch match = SocketMatch::None;
};

/// Follows every fd of every process of `log` through socket, accept, connect, dup and close,
/// and returns its TCP sockets (and sockets whose kind the log does not show), in order of creation.
std::vector<TracedSocket> collectTracedSockets(const StraceLog& log, uint32_t logIndex);

}  // namespace tcpscope
