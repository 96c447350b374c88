#include "engine/connection_processes.hpp"

#include <algorithm>

namespace tcpscope {

namespace {

// Every field of `process`, separated: what tells two records of the same process from two processes.
std::string valueKey(const PacketProcess& process) {
    std::string key;
    for (const std::string* text : {&process.command, &process.args, &process.parentCommand, &process.container,
                                    &process.pod, &process.cgroup, &process.uuid, &process.effectiveCommand}) {
        key += *text;
        key.push_back('\0');
    }
    // The thread is left out: the threads of one process that served a connection are one process.
    for (const int64_t number : {process.pid, process.parentPid, process.effectivePid}) {
        key.append(reinterpret_cast<const char*>(&number), sizeof number);
    }
    return key;
}

}  // namespace

uint32_t ConnectionProcesses::indexOf(const PacketProcess* process) {
    if (const auto found = byAddress_.find(process); found != byAddress_.end()) {
        return found->second;
    }
    const auto [slot, added] = byValue_.try_emplace(valueKey(*process), static_cast<uint32_t>(processes_.size()));
    if (added) {
        processes_.push_back(*process);
    }
    byAddress_.emplace(process, slot->second);
    return slot->second;
}

void ConnectionProcesses::note(uint32_t connection, Side end, const PacketProcess* process) {
    if (process == lastProcess_ && connection == lastConnection_ && end == lastEnd_) {
        return;
    }
    lastProcess_ = process;
    lastConnection_ = connection;
    lastEnd_ = end;
    const uint32_t index = indexOf(process);
    End& processes = ends_[connection][sideIndex(end)];
    if (!processes.known()) {
        processes.first = index;
        return;
    }
    if (processes.first == index) {
        return;
    }
    const auto listed = processes.others.begin() + std::min<size_t>(processes.otherCount, kListedOthers);
    if (std::find(processes.others.begin(), listed, index) != listed) {
        return;
    }
    if (processes.otherCount < kListedOthers) {
        processes.others[processes.otherCount] = index;
        ++processes.otherCount;
    } else if (processes.otherCount < UINT32_MAX) {
        ++processes.otherCount;  // beyond the list: counted without telling it from the unlisted ones
    }
}

const ConnectionProcesses::End* ConnectionProcesses::of(uint32_t connection, Side end) const {
    const auto found = ends_.find(connection);
    if (found == ends_.end()) {
        return nullptr;
    }
    const End& processes = found->second[sideIndex(end)];
    return processes.known() ? &processes : nullptr;
}

}  // namespace tcpscope
