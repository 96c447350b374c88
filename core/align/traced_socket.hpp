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
    BytesTiming, ///< the byte counts and times of its writes and reads against the segments
};
/// The mapping method for reports: "none", "yy", "history" (Connect, Accept), "bytes-timing".
const char* socketMatchName(SocketMatch match);
/// The call of the history: "connect", "accept", or "" for the other methods.
const char* socketHistoryCall(SocketMatch match);

/// How well a socket's writes and reads fit one side of one connection (bytes-timing matching).
struct ByteTimingScore {
    uint32_t connection = kNoConnection;
    Side side = Side::Client;
    double score = 0;             ///< 1 per call that fits closely, less for calls that only do not contradict
    uint32_t fittingCalls = 0;    ///< calls whose bytes are where and when they should be
    uint32_t comparedCalls = 0;   ///< calls whose bytes the capture holds
    uint32_t contradictions = 0;  ///< bytes on the wire before their write, or read before they arrived
    uint64_t sentBase = 0;        ///< stream offset of the first traced write's first byte
    uint64_t receivedBase = 0;    ///< stream offset of the first traced read's first byte
};

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
    bool kindUnsure = false;           ///< only plain read/write on an fd the log never showed made: maybe not a socket
    bool listening = false;
    bool hasLocal = false;
    bool hasRemote = false;
    bool decorated = false;            ///< the endpoints came from a -yy decoration, not from calls
    Endpoint local;
    Endpoint remote;
    bool connectCalled = false;
    bool connectFailed = false;        ///< every connect() on it failed (not EINPROGRESS): it never made a connection
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
    bool streamBasesKnown = false;     ///< sentBase/receivedBase hold (seen from start: both 0)
    uint64_t sentBase = 0;             ///< stream offset of the first byte of its first traced write
    uint64_t receivedBase = 0;         ///< stream offset of the first byte of its first traced read
    ByteTimingScore byteTiming;        ///< BytesTiming: the winning score
    double runnerUpScore = 0;          ///< BytesTiming: the best score of any other connection side
};

/// Follows every fd of every process of `log` through socket, accept, connect, dup and close,
/// and returns its TCP sockets (and sockets whose kind the log does not show), in order of creation.
std::vector<TracedSocket> collectTracedSockets(const StraceLog& log, uint32_t logIndex);

}  // namespace tcpscope
