#include "align/traced_socket.hpp"

#include <algorithm>

#include <absl/container/flat_hash_map.h>

namespace tcpscope {

const char* socketMatchName(SocketMatch match) {
    switch (match) {
        case SocketMatch::None: return "none";
        case SocketMatch::Decoration: return "yy";
        case SocketMatch::Connect:
        case SocketMatch::Accept: return "history";
        case SocketMatch::BytesTiming: return "bytes-timing";
    }
    return "none";
}

const char* socketHistoryCall(SocketMatch match) {
    switch (match) {
        case SocketMatch::Connect: return "connect";
        case SocketMatch::Accept: return "accept";
        default: return "";
    }
}

namespace {

constexpr int kAfInet = 2;
constexpr int kAfInet6 = 10;
constexpr int kSockStream = 1;
constexpr int kEalready = 114;     // Linux errno
constexpr int kEinprogress = 115;

struct FdKey {
    int32_t table;
    int32_t fd;
    bool operator==(const FdKey&) const = default;
    template <typename H>
    friend H AbslHashValue(H state, const FdKey& key) {
        return H::combine(std::move(state), key.table, key.fd);
    }
};

// Walks the log once, in time order, keeping each process's open fds.
class SocketCollector {
public:
    SocketCollector(const StraceLog& log, uint32_t logIndex) : log_(log), logIndex_(logIndex) {}

    std::vector<TracedSocket> run() {
        for (uint32_t index = 0; index < log_.records.size(); ++index) {
            visit(index, log_.records[index]);
        }
        return std::move(sockets_);
    }

private:
    int32_t tableOf(int32_t pid) const {
        const auto found = fdTableOfPid_.find(pid);
        return found == fdTableOfPid_.end() ? pid : found->second;
    }

    // The socket an fd refers to now, or -1.
    int64_t current(int32_t table, int32_t fd) const {
        const auto found = open_.find(FdKey{table, fd});
        return found == open_.end() ? -1 : static_cast<int64_t>(found->second);
    }

    uint32_t open(const SyscallRecord& record, int32_t fd, bool fromStart) {
        const int32_t table = tableOf(record.pid);
        close(table, fd, record.tsNs);
        TracedSocket socket;
        socket.log = logIndex_;
        socket.pid = record.pid;
        socket.fdTable = table;
        socket.fd = fd;
        socket.openTsNs = record.tsNs;
        socket.seenFromStart = fromStart;
        sockets_.push_back(std::move(socket));
        const auto id = static_cast<uint32_t>(sockets_.size() - 1);
        open_[FdKey{table, fd}] = id;
        return id;
    }

    // After fork() the child's fds are copies of the parent's: the same sockets, whose bytes both
    // processes may write.
    void inheritFds(int32_t parentTable, int32_t child) {
        std::vector<std::pair<int32_t, uint32_t>> inherited;
        for (const auto& [key, socket] : open_) {
            if (key.table == parentTable) {
                inherited.emplace_back(key.fd, socket);
            }
        }
        for (const auto& [fd, socket] : inherited) {
            open_[FdKey{child, fd}] = socket;
        }
    }

    void close(int32_t table, int32_t fd, int64_t tsNs) {
        const auto found = open_.find(FdKey{table, fd});
        if (found != open_.end()) {
            const uint32_t socket = found->second;
            open_.erase(found);
            // The socket ends when its last copy (in any process) is closed.
            const bool stillOpen = std::any_of(open_.begin(), open_.end(),
                                               [socket](const auto& entry) { return entry.second == socket; });
            if (!stillOpen) {
                sockets_[socket].closeTsNs = tsNs;
            }
        }
    }

    void learnDecoration(TracedSocket& socket, uint32_t decorationIndex) {
        const FdDecoration* decoration = log_.decoration(decorationIndex);
        if (decoration == nullptr || !decoration->isTcp()) {
            return;
        }
        if (decoration->hasLocal) {
            socket.hasLocal = true;
            socket.local = decoration->local;
        }
        if (decoration->hasRemote) {
            socket.hasRemote = true;
            socket.remote = decoration->remote;
            socket.decorated = decoration->hasLocal;
        }
    }

    // Whether a call on an fd we did not see created (the trace began after it was made) shows a
    // TCP socket: its -yy decoration says so, a -y decoration says "socket", or, without
    // decorations, the call is one only sockets take. Plain read/write on such an fd may be a file
    // or a pipe as well: `unsure` then, for the matching to decide.
    bool mayBeTcpSocket(const SyscallRecord& record, bool& unsure) const {
        unsure = false;
        if (const FdDecoration* decoration = log_.decoration(record.fdDecoration)) {
            return decoration->isTcp() || decoration->kind == FdDecorationKind::OtherSocket;
        }
        switch (record.name) {
            case SyscallName::send:
            case SyscallName::sendto:
            case SyscallName::sendmsg:
            case SyscallName::sendmmsg:
            case SyscallName::recv:
            case SyscallName::recvfrom:
            case SyscallName::recvmsg:
            case SyscallName::recvmmsg:
            case SyscallName::shutdown:
            case SyscallName::setsockopt:
            case SyscallName::getsockopt:
            case SyscallName::getsockname:
            case SyscallName::getpeername: return true;
            case SyscallName::read:
            case SyscallName::write:
            case SyscallName::readv:
            case SyscallName::writev:
                unsure = true;
                return record.fd > 2;  // not stdin, stdout, stderr
            default: return false;
        }
    }

    void visit(uint32_t index, const SyscallRecord& record) {
        const int32_t table = tableOf(record.pid);
        switch (record.kind) {
            case SyscallKind::ProcessCreate:
                if (record.succeeded() && record.returnValue > 0) {
                    const auto child = static_cast<int32_t>(record.returnValue);
                    if (record.has(kSharesFdTable)) {
                        fdTableOfPid_[child] = table;  // a thread: the same fds
                    } else {
                        inheritFds(table, child);      // fork: copies of the same sockets
                    }
                }
                return;
            case SyscallKind::Socket:
                if (record.succeeded() && (record.family == kAfInet || record.family == kAfInet6) &&
                    record.socketType == kSockStream) {
                    const uint32_t id = open(record, record.otherFd, true);
                    sockets_[id].records.push_back(index);
                    learnDecoration(sockets_[id], record.otherFdDecoration);
                } else if (record.succeeded()) {
                    close(table, record.otherFd, record.tsNs);
                }
                return;
            case SyscallKind::Accept:
                if (record.succeeded() && record.otherFd >= 0) {
                    const uint32_t id = open(record, record.otherFd, true);
                    TracedSocket& socket = sockets_[id];
                    socket.acceptedHere = true;
                    socket.records.push_back(index);
                    if (record.hasAddress()) {
                        socket.hasRemote = true;
                        socket.remote = record.address;
                    }
                    learnDecoration(socket, record.otherFdDecoration);
                    // The listener's local address is the accepted socket's local address.
                    if (!socket.hasLocal) {
                        const int64_t listener = current(table, record.fd);
                        if (listener >= 0 && sockets_[static_cast<size_t>(listener)].hasLocal) {
                            socket.hasLocal = true;
                            socket.local = sockets_[static_cast<size_t>(listener)].local;
                        }
                    }
                }
                break;  // the listener's own record below
            case SyscallKind::Dup:
                if (record.succeeded() && record.otherFd >= 0) {
                    const int64_t original = current(table, record.fd);
                    close(table, record.otherFd, record.tsNs);
                    if (original >= 0) {
                        open_[FdKey{table, record.otherFd}] = static_cast<uint32_t>(original);
                    }
                }
                return;
            case SyscallKind::Close: {
                const int64_t socket = current(table, record.fd);
                if (socket >= 0) {
                    sockets_[static_cast<size_t>(socket)].records.push_back(index);
                }
                close(table, record.fd, record.tsNs);
                return;
            }
            case SyscallKind::Wait: {
                for (const ReadyFd& ready : log_.readyFdsOf(record)) {
                    const int64_t socket = current(table, ready.fd);
                    if (socket >= 0) {
                        sockets_[static_cast<size_t>(socket)].waits.push_back(index);
                    }
                }
                return;
            }
            default: break;
        }
        if (record.fd < 0) {
            return;
        }
        int64_t socketIndex = current(table, record.fd);
        if (socketIndex < 0) {
            bool unsure = false;
            if (!mayBeTcpSocket(record, unsure)) {
                return;
            }
            socketIndex = open(record, record.fd, false);
            sockets_[static_cast<size_t>(socketIndex)].kindUnsure = unsure;
        } else if (bool unsure = false; mayBeTcpSocket(record, unsure) && !unsure) {
            sockets_[static_cast<size_t>(socketIndex)].kindUnsure = false;  // a call only sockets take
        }
        TracedSocket& socket = sockets_[static_cast<size_t>(socketIndex)];
        socket.records.push_back(index);
        learnDecoration(socket, record.fdDecoration);
        apply(socket, record);
    }

    static void apply(TracedSocket& socket, const SyscallRecord& record) {
        switch (record.kind) {
            case SyscallKind::Connect:
                // 0, or EINPROGRESS/EALREADY of a non-blocking connect, may make a connection.
                socket.connectFailed = (socket.connectFailed || !socket.connectCalled) &&
                                       record.returnKind == ReturnKind::Error && record.errnoCode != kEinprogress &&
                                       record.errnoCode != kEalready;
                socket.connectCalled = true;
                if (record.hasAddress() && !socket.hasRemote) {
                    socket.hasRemote = true;
                    socket.remote = record.address;
                }
                break;
            case SyscallKind::Bind:
                if (record.hasAddress() && record.succeeded() && !socket.hasLocal) {
                    socket.hasLocal = true;
                    socket.local = record.address;
                }
                break;
            case SyscallKind::Listen: socket.listening = true; break;
            case SyscallKind::GetSockName:
                if (record.hasAddress() && record.succeeded()) {
                    socket.hasLocal = true;
                    socket.local = record.address;
                }
                break;
            case SyscallKind::GetPeerName:
                if (record.hasAddress() && record.succeeded()) {
                    socket.hasRemote = true;
                    socket.remote = record.address;
                }
                break;
            case SyscallKind::SetSockOpt:
                if (!record.succeeded()) {
                    break;
                }
                if (record.option == SocketOption::TcpNodelay && record.optionValue != 0 && !socket.nodelaySet) {
                    socket.nodelaySet = true;
                    socket.nodelayTsNs = record.tsNs;
                }
                socket.corkUsed |= record.option == SocketOption::TcpCork;
                socket.quickackUsed |= record.option == SocketOption::TcpQuickack;
                break;
            default: break;
        }
    }

    const StraceLog& log_;
    uint32_t logIndex_;
    std::vector<TracedSocket> sockets_;
    absl::flat_hash_map<FdKey, uint32_t> open_;
    absl::flat_hash_map<int32_t, int32_t> fdTableOfPid_;
};

}  // namespace

std::vector<TracedSocket> collectTracedSockets(const StraceLog& log, uint32_t logIndex) {
    return SocketCollector(log, logIndex).run();
}

}  // namespace tcpscope
