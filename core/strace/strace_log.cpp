#include "strace/strace_log.hpp"

#include <algorithm>

namespace tcpscope {

std::string_view StraceLog::nameOf(const SyscallRecord& record) const {
    const auto id = static_cast<uint16_t>(record.name);
    if (id < kFirstDynamicSyscallName) {
        return knownSyscallNameText(record.name);
    }
    const size_t index = id - kFirstDynamicSyscallName;
    return index < dynamicNames.size() ? std::string_view(dynamicNames[index]) : std::string_view();
}

std::span<const ReadyFd> StraceLog::readyFdsOf(const SyscallRecord& record) const {
    if (record.readyCount == 0 || record.readyBegin > readyFds.size() ||
        readyFds.size() - record.readyBegin < record.readyCount) {
        return {};
    }
    return std::span<const ReadyFd>(readyFds).subspan(record.readyBegin, record.readyCount);
}

std::span<const uint32_t> StraceLog::recordIndexesOf(int32_t pid) const {
    const auto found = std::lower_bound(processes.begin(), processes.end(), pid,
                                        [](const StraceProcess& process, int32_t key) { return process.pid < key; });
    if (found == processes.end() || found->pid != pid) {
        return {};
    }
    return found->records;
}

std::vector<int32_t> StraceLog::pids() const {
    std::vector<int32_t> result;
    result.reserve(processes.size());
    for (const StraceProcess& process : processes) {
        result.push_back(process.pid);
    }
    return result;
}

}  // namespace tcpscope
