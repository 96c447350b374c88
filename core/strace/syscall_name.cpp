#include "strace/syscall_name.hpp"

#include <algorithm>
#include <array>

namespace tcpscope {
namespace {

struct KnownName {
    std::string_view text;
    SyscallName name;
    SyscallKind kind;
};

constexpr std::array kKnownNames{KnownName{"", SyscallName::unknown, SyscallKind::Other},
#define TCPSCOPE_STRACE_ENTRY(name, kind) KnownName{#name, SyscallName::name, SyscallKind::kind},
                                 TCPSCOPE_STRACE_SYSCALLS(TCPSCOPE_STRACE_ENTRY)
#undef TCPSCOPE_STRACE_ENTRY
};
static_assert(kKnownNames.size() == kFirstDynamicSyscallName);

// The same names sorted by text, for a binary search.
constexpr auto kSortedNames = [] {
    auto sorted = kKnownNames;
    std::sort(sorted.begin(), sorted.end(), [](const KnownName& a, const KnownName& b) { return a.text < b.text; });
    return sorted;
}();

}  // namespace

std::optional<SyscallName> knownSyscallName(std::string_view text) {
    const auto found = std::lower_bound(kSortedNames.begin(), kSortedNames.end(), text,
                                        [](const KnownName& entry, std::string_view key) { return entry.text < key; });
    if (found == kSortedNames.end() || found->text != text || text.empty()) {
        return std::nullopt;
    }
    return found->name;
}

std::string_view knownSyscallNameText(SyscallName name) {
    const auto index = static_cast<size_t>(name);
    return index < kKnownNames.size() ? kKnownNames[index].text : std::string_view();
}

SyscallKind syscallKindOf(SyscallName name) {
    const auto index = static_cast<size_t>(name);
    return index < kKnownNames.size() ? kKnownNames[index].kind : SyscallKind::Other;
}

std::string_view syscallKindName(SyscallKind kind) {
    switch (kind) {
        case SyscallKind::Other: return "other";
        case SyscallKind::Socket: return "socket";
        case SyscallKind::SocketPair: return "socketpair";
        case SyscallKind::Connect: return "connect";
        case SyscallKind::Accept: return "accept";
        case SyscallKind::Bind: return "bind";
        case SyscallKind::Listen: return "listen";
        case SyscallKind::Close: return "close";
        case SyscallKind::Shutdown: return "shutdown";
        case SyscallKind::SetSockOpt: return "setsockopt";
        case SyscallKind::GetSockOpt: return "getsockopt";
        case SyscallKind::GetSockName: return "getsockname";
        case SyscallKind::GetPeerName: return "getpeername";
        case SyscallKind::Write: return "write";
        case SyscallKind::Read: return "read";
        case SyscallKind::Wait: return "wait";
        case SyscallKind::EpollCtl: return "epoll_ctl";
        case SyscallKind::Dup: return "dup";
        case SyscallKind::ProcessCreate: return "process_create";
        case SyscallKind::Exec: return "exec";
        case SyscallKind::Signal: return "signal";
        case SyscallKind::ProcessExit: return "process_exit";
    }
    return "other";
}

}  // namespace tcpscope
