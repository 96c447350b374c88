#include "strace/record_order.hpp"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <cstdint>

namespace tcpscope {

void sortRecordsByTime(std::vector<SyscallRecord>& records) {
    std::vector<uint32_t> inOrder;
    std::vector<uint32_t> late;
    int64_t latestNs = INT64_MIN;
    for (size_t index = 0; index < records.size(); ++index) {
        if (records[index].tsNs >= latestNs) {
            latestNs = records[index].tsNs;
            inOrder.push_back(static_cast<uint32_t>(index));
        } else {
            late.push_back(static_cast<uint32_t>(index));
        }
    }
    if (late.empty()) {
        return;
    }
    const auto before = [&records](uint32_t a, uint32_t b) {
        return records[a].tsNs != records[b].tsNs ? records[a].tsNs < records[b].tsNs : a < b;
    };
    std::sort(late.begin(), late.end(), before);
    std::vector<SyscallRecord> sorted;
    sorted.reserve(records.size());
    size_t next = 0;
    for (const uint32_t index : inOrder) {
        while (next < late.size() && before(late[next], index)) {
            sorted.push_back(records[late[next++]]);
        }
        sorted.push_back(records[index]);
    }
    while (next < late.size()) {
        sorted.push_back(records[late[next++]]);
    }
    records = std::move(sorted);
}

std::vector<StraceProcess> indexProcesses(const std::vector<SyscallRecord>& records) {
    std::vector<StraceProcess> processes;
    absl::flat_hash_map<int32_t, size_t> slotByPid;
    for (size_t index = 0; index < records.size(); ++index) {
        const int32_t pid = records[index].pid;
        const auto [slot, inserted] = slotByPid.try_emplace(pid, processes.size());
        if (inserted) {
            processes.push_back(StraceProcess{pid, {}});
        }
        processes[slot->second].records.push_back(static_cast<uint32_t>(index));
    }
    std::sort(processes.begin(), processes.end(),
              [](const StraceProcess& a, const StraceProcess& b) { return a.pid < b.pid; });
    return processes;
}

}  // namespace tcpscope
