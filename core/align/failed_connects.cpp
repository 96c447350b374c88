#include "align/failed_connects.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace tcpscope {

namespace {

constexpr int kEaddrnotavail = 99;  // Linux errno

bool failedForWantOfPort(const SyscallRecord& call) {
    return call.kind == SyscallKind::Connect && call.returnKind == ReturnKind::Error &&
           call.errnoCode == kEaddrnotavail;
}

}  // namespace

std::vector<int64_t> failedConnectTimes(const StraceAlignment& alignment, const std::optional<Endpoint>& server) {
    const std::string serverText = server ? server->toString() : std::string();
    std::vector<int64_t> times;
    for (uint32_t logIndex = 0; logIndex < alignment.logs.size(); ++logIndex) {
        for (const SyscallRecord& call : alignment.logs[logIndex].log.records) {
            if (!failedForWantOfPort(call)) {
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

std::vector<FailedConnectCalls> failedConnectsByServer(const StraceAlignment& alignment) {
    std::vector<FailedConnectCalls> byServer;
    std::map<std::string, size_t> slots;  // by the server's text ("" without an address)
    for (uint32_t logIndex = 0; logIndex < alignment.logs.size(); ++logIndex) {
        for (const SyscallRecord& call : alignment.logs[logIndex].log.records) {
            if (!failedForWantOfPort(call)) {
                continue;
            }
            const auto [slot, isNew] =
                slots.try_emplace(call.hasAddress() ? call.address.toString() : std::string(), byServer.size());
            if (isNew) {
                byServer.push_back({call.hasAddress() ? std::optional<Endpoint>(call.address) : std::nullopt, {}});
            }
            byServer[slot->second].timesNs.push_back(alignment.captureTsNs(logIndex, call));
        }
    }
    for (FailedConnectCalls& server : byServer) {
        std::sort(server.timesNs.begin(), server.timesNs.end());
    }
    std::stable_sort(byServer.begin(), byServer.end(), [](const FailedConnectCalls& a, const FailedConnectCalls& b) {
        if (a.timesNs.size() != b.timesNs.size()) {
            return a.timesNs.size() > b.timesNs.size();
        }
        return a.timesNs.front() < b.timesNs.front();
    });
    return byServer;
}

}  // namespace tcpscope
