#include "strace/syscall_decoder.hpp"

#include "strace/errno_names.hpp"
#include "strace/fd_decoration.hpp"
#include "strace/ready_fd_parser.hpp"
#include "strace/sockaddr_parser.hpp"
#include "strace/socket_constants.hpp"
#include "strace/syscall_result.hpp"
#include "strace/text_scan.hpp"

namespace tcpscope {
namespace {

using strace_text::trim;

/// Sum of the numbers after every `key` ("iov_len=", "msg_len="); `partial` when strace cut the list.
int64_t sumField(std::string_view text, std::string_view key, bool& partial) {
    int64_t sum = 0;
    bool found = false;
    size_t position = 0;
    while (true) {
        const size_t at = text.find(key, position);
        if (at == std::string_view::npos) {
            break;
        }
        uint64_t value = 0;
        const size_t used = strace_text::parseLeadingUnsigned(text.substr(at + key.size()), value);
        position = at + key.size() + used;
        if (used > 0 && value <= static_cast<uint64_t>(INT64_MAX - sum)) {
            sum += static_cast<int64_t>(value);
            found = true;
        }
    }
    // A list strace cut short (more elements than -s allows) ends in ", ...]"; a cut string
    // inside an element ("abc"...) is not a cut list.
    partial = text.find(", ...]") != std::string_view::npos || text.find("[...]") != std::string_view::npos;
    return found ? sum : SyscallRecord::kUnknown;
}

int64_t lengthArgument(std::string_view argument) {
    const auto value = strace_text::parseInteger(argument);
    return value && *value >= 0 ? *value : SyscallRecord::kUnknown;
}

bool mentions(const ArgumentList& arguments, std::string_view word) {
    for (size_t index = 0; index < arguments.size(); ++index) {
        if (arguments[index].find(word) != std::string_view::npos) {
            return true;
        }
    }
    return false;
}

}  // namespace

void SyscallDecoder::readFd(std::string_view argument, int32_t& fd, uint32_t& decoration) {
    const FdArgument parsed = parseFdArgument(argument);
    if (!parsed.valid) {
        return;
    }
    fd = parsed.fd;
    if (!parsed.decoration.empty()) {
        decoration = decorations_.intern(parsed.decoration);
    }
}

void SyscallDecoder::readAddress(std::string_view argument, SyscallRecord& record) {
    const SocketAddress address = parseSocketAddress(argument);
    if (address.family == 0) {
        return;
    }
    record.family = address.family;
    if (address.hasEndpoint) {
        record.address = address.endpoint;
        record.flags |= kHasAddress;
    }
}

void SyscallDecoder::readSocketOption(const ArgumentList& arguments, SyscallRecord& record) {
    record.optionLevel = socketOptionLevelFromName(arguments[1]);
    record.option = socketOptionFromName(arguments[2]);
    // getsockopt prints its value only on success; setsockopt always.
    if (record.kind == SyscallKind::GetSockOpt && record.returnKind != ReturnKind::Value) {
        return;
    }
    const std::string_view value = trim(arguments[3]);
    if (value.size() >= 2 && value.front() == '[' && value.back() == ']') {
        const std::string_view inner = trim(value.substr(1, value.size() - 2));
        if (const auto number = strace_text::parseInteger(inner)) {
            record.optionValue = *number;
            record.flags |= kHasOptionValue;
        } else if (const int errnoNumber = errnoFromName(inner); errnoNumber != 0) {
            record.optionValue = errnoNumber;  // SO_ERROR after a non-blocking connect
            record.flags |= kHasOptionValue;
        }
    } else if (value.substr(0, 1) == "{" && value.find("l_onoff=") != std::string_view::npos) {
        const auto onOff = strace_text::unsignedAfter(value, "l_onoff=");
        const auto linger = strace_text::unsignedAfter(value, "l_linger=");
        if (onOff && linger && *linger <= INT32_MAX) {
            record.optionValue = *onOff != 0 ? static_cast<int64_t>(*linger) : -1;
            record.flags |= kHasOptionValue;
        }
    }
}

void SyscallDecoder::readTransfer(const ArgumentList& arguments, SyscallRecord& record) {
    readFd(arguments[0], record.fd, record.fdDecoration);
    bool partial = false;
    bool messageCount = false;
    switch (record.name) {
        case SyscallName::writev:
        case SyscallName::readv:
        case SyscallName::sendmsg:
        case SyscallName::recvmsg: record.requestedBytes = sumField(arguments[1], "iov_len=", partial); break;
        case SyscallName::sendmmsg:
        case SyscallName::recvmmsg:
            // The return value counts messages; the bytes are the msg_len of each.
            messageCount = true;
            if (record.returnKind == ReturnKind::Value) {
                record.bytes = sumField(arguments[1], "msg_len=", partial);
            }
            break;
        case SyscallName::sendfile:
        case SyscallName::sendfile64: record.requestedBytes = lengthArgument(arguments[3]); break;
        case SyscallName::sendto:
        case SyscallName::recvfrom:
            readAddress(arguments[4], record);
            record.requestedBytes = lengthArgument(arguments[2]);
            break;
        default: record.requestedBytes = lengthArgument(arguments[2]); break;
    }
    if (partial) {
        record.flags |= kBytesPartial;
    }
    if (!messageCount && record.returnKind == ReturnKind::Value && record.returnValue >= 0) {
        record.bytes = record.returnValue;
    }
}

void SyscallDecoder::readWait(const ArgumentList& arguments, std::string_view annotation, SyscallRecord& record) {
    const bool epoll = record.name == SyscallName::epoll_wait || record.name == SyscallName::epoll_pwait ||
                       record.name == SyscallName::epoll_pwait2;
    if (epoll) {
        readFd(arguments[0], record.fd, record.fdDecoration);
    }
    if (record.returnKind != ReturnKind::Value || record.returnValue <= 0) {
        return;  // nothing ready: timeout, error, or the call never returned
    }
    ReadyFdSink sink{readyFds_, kMaxReadyFdsPerCall};
    record.readyBegin = static_cast<uint32_t>(readyFds_.size());
    switch (record.name) {
        case SyscallName::poll:
        case SyscallName::ppoll: parsePollReady(annotation, sink); break;
        case SyscallName::select:
        case SyscallName::_newselect:
        case SyscallName::pselect6: parseSelectReady(annotation, sink); break;
        default:  // the epoll_wait family prints the ready events in its second argument
            if (epoll) {
                parseEpollReady(arguments[1], sink);
            }
            break;
    }
    record.readyCount = static_cast<uint32_t>(sink.added);
    if (sink.cut) {
        record.flags |= kReadyListCut;
    }
}

void SyscallDecoder::decode(const ArgumentList& arguments, std::string_view result, bool hasResult,
                            SyscallRecord& record) {
    ResultDetails details;
    if (hasResult) {
        details = parseSyscallResult(result, record);
    } else {
        record.returnKind = ReturnKind::Missing;
    }
    const bool returnedValue = record.returnKind == ReturnKind::Value;
    switch (record.kind) {
        case SyscallKind::Other:
        case SyscallKind::Exec:
        case SyscallKind::Signal:
        case SyscallKind::ProcessExit: break;
        case SyscallKind::Socket: {
            record.family = addressFamilyFromName(arguments[0]);
            bool nonBlocking = false;
            record.socketType = socketTypeFromText(arguments[1], nonBlocking);
            record.protocol = protocolFromName(arguments[2]);
            if (nonBlocking) {
                record.flags |= kNonBlocking;
            }
            if (returnedValue) {
                record.otherFd = static_cast<int32_t>(record.returnValue);
                if (!details.decoration.empty()) {
                    record.otherFdDecoration = decorations_.intern(details.decoration);
                }
            }
            break;
        }
        case SyscallKind::SocketPair: {
            record.family = addressFamilyFromName(arguments[0]);
            bool nonBlocking = false;
            record.socketType = socketTypeFromText(arguments[1], nonBlocking);
            // "[6<UNIX-STREAM:[71692->71693]>, 7<...>]": the pair, printed on success.
            ArgumentList pair;
            const std::string_view fds = trim(arguments[3]);
            if (returnedValue && fds.size() >= 2 && fds.front() == '[') {
                pair.append(fds.substr(1, fds.size() - 2));
                readFd(pair[0], record.fd, record.fdDecoration);
                readFd(pair[1], record.otherFd, record.otherFdDecoration);
            }
            break;
        }
        case SyscallKind::Connect:
        case SyscallKind::Bind:
            readFd(arguments[0], record.fd, record.fdDecoration);
            readAddress(arguments[1], record);
            break;
        case SyscallKind::Accept:
            readFd(arguments[0], record.fd, record.fdDecoration);
            if (returnedValue) {
                readAddress(arguments[1], record);
                record.otherFd = static_cast<int32_t>(record.returnValue);
                if (!details.decoration.empty()) {
                    record.otherFdDecoration = decorations_.intern(details.decoration);
                }
            }
            if (arguments[3].find("SOCK_NONBLOCK") != std::string_view::npos) {
                record.flags |= kNonBlocking;
            }
            break;
        case SyscallKind::GetSockName:
        case SyscallKind::GetPeerName:
            readFd(arguments[0], record.fd, record.fdDecoration);
            if (returnedValue) {
                readAddress(arguments[1], record);
            }
            break;
        case SyscallKind::Listen:
            readFd(arguments[0], record.fd, record.fdDecoration);
            if (const auto backlog = strace_text::parseInteger(arguments[1]);
                backlog && *backlog >= INT32_MIN && *backlog <= INT32_MAX) {
                record.backlog = static_cast<int32_t>(*backlog);
            }
            break;
        case SyscallKind::Close: readFd(arguments[0], record.fd, record.fdDecoration); break;
        case SyscallKind::Shutdown:
            readFd(arguments[0], record.fd, record.fdDecoration);
            record.shutdownHow = shutdownHowFromName(arguments[1]);
            break;
        case SyscallKind::SetSockOpt:
        case SyscallKind::GetSockOpt:
            readFd(arguments[0], record.fd, record.fdDecoration);
            readSocketOption(arguments, record);
            break;
        case SyscallKind::Write:
        case SyscallKind::Read: readTransfer(arguments, record); break;
        case SyscallKind::Wait: readWait(arguments, details.annotation, record); break;
        case SyscallKind::EpollCtl: {
            readFd(arguments[0], record.fd, record.fdDecoration);
            record.epollOp = epollOpFromName(arguments[1]);
            readFd(arguments[2], record.otherFd, record.otherFdDecoration);
            uint8_t events = 0;
            uint64_t data = 0;
            if (parseEpollEvent(arguments[3], events, data)) {
                record.epollEvents = events;
                record.epollData = data;
            }
            break;
        }
        case SyscallKind::Dup:
            if ((record.name == SyscallName::fcntl || record.name == SyscallName::fcntl64) &&
                trim(arguments[1]).substr(0, 7) != "F_DUPFD") {
                record.kind = SyscallKind::Other;  // F_GETFL, F_SETFL, ...: not a copy
                break;
            }
            readFd(arguments[0], record.fd, record.fdDecoration);
            if (returnedValue) {
                record.otherFd = static_cast<int32_t>(record.returnValue);
                if (!details.decoration.empty()) {
                    record.otherFdDecoration = decorations_.intern(details.decoration);
                }
            }
            break;
        case SyscallKind::ProcessCreate:
            if (mentions(arguments, "CLONE_FILES")) {
                record.flags |= kSharesFdTable;
            }
            if (mentions(arguments, "CLONE_THREAD")) {
                record.flags |= kThread;
            }
            break;
    }
}

}  // namespace tcpscope
