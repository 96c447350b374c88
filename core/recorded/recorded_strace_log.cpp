#include "recorded/recorded_strace_log.hpp"

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include "strace/record_order.hpp"
#include "strace/syscall_name.hpp"

namespace tcpscope {
namespace {

constexpr int32_t kSolSocket = 1;
constexpr int32_t kIpprotoTcp = 6;
constexpr int32_t kIpprotoUdp = 17;
constexpr int64_t kMaxErrno = 4095;

SyscallName syscallNameOf(RecordedCallName name) {
    switch (name) {
        case RecordedCallName::write: return SyscallName::write;
        case RecordedCallName::writev: return SyscallName::writev;
        case RecordedCallName::sendto: return SyscallName::sendto;
        case RecordedCallName::sendmsg: return SyscallName::sendmsg;
        case RecordedCallName::read: return SyscallName::read;
        case RecordedCallName::readv: return SyscallName::readv;
        case RecordedCallName::recvfrom: return SyscallName::recvfrom;
        case RecordedCallName::recvmsg: return SyscallName::recvmsg;
        case RecordedCallName::connect: return SyscallName::connect;
        case RecordedCallName::accept: return SyscallName::accept;
        case RecordedCallName::accept4: return SyscallName::accept4;
        case RecordedCallName::setsockopt: return SyscallName::setsockopt;
        case RecordedCallName::close: return SyscallName::close;
        case RecordedCallName::shutdown: return SyscallName::shutdown;
        case RecordedCallName::epoll_wait: return SyscallName::epoll_wait;
        case RecordedCallName::epoll_pwait: return SyscallName::epoll_pwait;
        case RecordedCallName::poll: return SyscallName::poll;
        case RecordedCallName::ppoll: return SyscallName::ppoll;
        case RecordedCallName::select: return SyscallName::select;
        case RecordedCallName::pselect6: return SyscallName::pselect6;
    }
    return SyscallName::unknown;
}

SocketOption optionOf(int32_t level, int32_t name) {
    if (level == kIpprotoTcp) {
        switch (name) {
            case 1: return SocketOption::TcpNodelay;
            case 3: return SocketOption::TcpCork;
            case 12: return SocketOption::TcpQuickack;
            default: return SocketOption::Other;
        }
    }
    if (level == kSolSocket) {
        return name == 13 ? SocketOption::SoLinger : SocketOption::Other;
    }
    return SocketOption::Other;
}

SocketOptionLevel levelOf(int32_t level) {
    return level == kSolSocket ? SocketOptionLevel::Socket : level == kIpprotoTcp ? SocketOptionLevel::Tcp : SocketOptionLevel::Other;
}

// The decorations of one log, each 4-tuple once, as strace -yy prints them.
class Decorations {
public:
    uint32_t of(const RecordedCall& call) {
        FdDecoration decoration;
        const bool v4 = call.local.address.isV4();
        if (call.protocol == kIpprotoTcp) {
            decoration.kind = v4 ? FdDecorationKind::Tcp : FdDecorationKind::Tcp6;
        } else if (call.protocol == kIpprotoUdp) {
            decoration.kind = v4 ? FdDecorationKind::Udp : FdDecorationKind::Udp6;
        } else {
            decoration.kind = FdDecorationKind::OtherSocket;
        }
        decoration.hasLocal = true;
        decoration.local = call.local;
        decoration.hasRemote = call.remote.port != 0;
        decoration.remote = call.remote;
        const std::string_view prefix = decoration.kind == FdDecorationKind::Tcp    ? "TCP"
                                        : decoration.kind == FdDecorationKind::Tcp6 ? "TCPv6"
                                        : decoration.kind == FdDecorationKind::Udp  ? "UDP"
                                        : decoration.kind == FdDecorationKind::Udp6 ? "UDPv6"
                                                                                    : "socket";
        decoration.text = decoration.hasRemote ? fmt::format("{}:[{}->{}]", prefix, call.local.toString(), call.remote.toString())
                                               : fmt::format("{}:[{}]", prefix, call.local.toString());
        auto [place, added] = index_.try_emplace(decoration.text, static_cast<uint32_t>(list_.size()));
        if (added) {
            list_.push_back(std::move(decoration));
        }
        return place->second;
    }
    std::vector<FdDecoration> release() { return std::move(list_); }

private:
    absl::flat_hash_map<std::string, uint32_t> index_;
    std::vector<FdDecoration> list_;
};

}  // namespace

StraceLog straceLogOfRecordedCalls(const RecordedCalls& calls, const std::string& name) {
    StraceLog log;
    log.format.timeBase = StraceTimeBase::Epoch;
    log.format.fractionDigits = 9;
    log.format.durations = true;
    log.format.pidStyle = StracePidStyle::Column;
    log.format.fdStyle = StraceFdStyle::Endpoints;
    Decorations decorations;
    log.records.reserve(calls.calls.size());
    uint32_t lineNumber = 0;
    for (const RecordedCall& call : calls.calls) {
        ++lineNumber;
        SyscallRecord record;
        record.name = syscallNameOf(call.name);
        record.kind = syscallKindOf(record.name);
        record.tsNs = calls.realtimeNs(call.enterNs);
        record.durationNs = call.exitNs >= call.enterNs ? static_cast<int64_t>(call.exitNs - call.enterNs) : SyscallRecord::kUnknown;
        // As strace -f names threads: by their own id.
        record.pid = static_cast<int32_t>(call.tid);
        record.fd = call.fd;
        record.lineNumber = lineNumber;
        if (call.result < 0 && call.result >= -kMaxErrno) {
            record.returnKind = ReturnKind::Error;
            record.errnoCode = static_cast<int16_t>(-call.result);
        } else {
            record.returnKind = ReturnKind::Value;
            record.returnValue = call.result;
        }
        const bool socketCall = call.hasSocket && record.kind != SyscallKind::Wait;
        if (socketCall && record.kind != SyscallKind::Accept) {
            record.fdDecoration = decorations.of(call);
        }
        switch (record.kind) {
            case SyscallKind::Write:
            case SyscallKind::Read:
                record.requestedBytes = call.sizeBytes;
                if (record.succeeded()) {
                    record.bytes = record.returnValue;
                }
                break;
            case SyscallKind::Connect:
                if (socketCall) {
                    record.address = call.remote;
                    record.flags |= kHasAddress;
                    record.family = call.local.address.isV4() ? 2 : 10;
                }
                break;
            case SyscallKind::Accept:
                if (record.succeeded()) {
                    record.otherFd = static_cast<int32_t>(record.returnValue);
                    if (socketCall) {
                        record.otherFdDecoration = decorations.of(call);
                        record.address = call.remote;
                        record.flags |= kHasAddress;
                        record.family = call.local.address.isV4() ? 2 : 10;
                    }
                }
                break;
            case SyscallKind::SetSockOpt:
                record.optionLevel = levelOf(call.optionLevel);
                record.option = optionOf(call.optionLevel, call.optionName);
                if (call.hasOption) {
                    record.optionValue = call.optionValue;
                    record.flags |= kHasOptionValue;
                }
                break;
            case SyscallKind::Shutdown:
                record.shutdownHow = static_cast<uint8_t>(call.optionLevel);
                break;
            default:
                break;
        }
        log.records.push_back(record);
    }
    log.decorations = decorations.release();
    StraceFileInfo file;
    file.path = name;
    file.format = log.format;
    file.lines = calls.calls.size();
    log.files.push_back(std::move(file));
    log.stats.lines = calls.calls.size();
    sortRecordsByTime(log.records);
    log.processes = indexProcesses(log.records);
    return log;
}

}  // namespace tcpscope
