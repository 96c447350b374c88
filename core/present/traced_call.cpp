#include "present/traced_call.hpp"

#include <fmt/format.h>

#include "strace/errno_names.hpp"
#include "strace/socket_constants.hpp"

namespace tcpscope {

std::string syscallShortLabel(const StraceLog& log, const SyscallRecord& call) {
    const std::string_view name = log.nameOf(call);
    if (call.returnKind == ReturnKind::Error) {
        const std::string_view error = errnoName(call.errnoCode);
        return fmt::format("{} {}", name, error.empty() ? std::string_view("failed") : error);
    }
    switch (call.kind) {
        case SyscallKind::Write:
        case SyscallKind::Read:
            if (call.bytes >= 0) {
                return fmt::format("{} {} B", name, call.bytes);
            }
            break;
        case SyscallKind::Wait:
            if (call.durationNs >= 1'000'000) {  // only a wait that blocked long enough to matter
                return fmt::format("{} {:.1f} ms", name, static_cast<double>(call.durationNs) / 1e6);
            }
            break;
        case SyscallKind::SetSockOpt:
            if (call.option != SocketOption::None && call.option != SocketOption::Other) {
                return fmt::format("{} {}={}", name, socketOptionName(call.option), call.optionValue);
            }
            break;
        default: break;
    }
    return std::string(name);
}

}  // namespace tcpscope
