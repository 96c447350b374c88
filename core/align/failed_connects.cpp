#include "align/failed_connects.hpp"

#include <algorithm>
#include <string>

namespace tcpscope {

namespace {

constexpr int kEaddrnotavail = 99;  // Linux errno

}  // namespace

std::vector<int64_t> failedConnectTimes(const StraceAlignment& alignment, const std::optional<Endpoint>& server) {
    const std::string serverText = server ? server->toString() : std::string();
    std::vector<int64_t> times;
    for (uint32_t logIndex = 0; logIndex < alignment.logs.size(); ++logIndex) {
        for (const SyscallRecord& call : alignment.logs[logIndex].log.records) {
            if (call.kind != SyscallKind::Connect || call.returnKind != ReturnKind::Error ||
                call.errnoCode != kEaddrnotavail) {
                continue;
            }
            if (!serverText.empty() && call.hasAddress() && call.address.toString() != serverText) {
                continue;
            }
            times.push_back(alignment.captureTsNs(logIndex, call));
        }
    }
    std::sort(times.begin(), times.end());
    return times;
}

}  // namespace tcpscope
