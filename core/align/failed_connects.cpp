#include "align/failed_connects.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

#include "finding/wording.hpp"

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

std::string tracedSocketsText(const StraceAlignment& alignment) {
    const auto tied = static_cast<uint64_t>(
        std::count_if(alignment.sockets.begin(), alignment.sockets.end(),
                      [](const TracedSocket& socket) { return socket.connection != kNoConnection; }));
    if (!alignment.sockets.empty()) {
        return tied == alignment.sockets.size()
                   ? fmt::format("{} traced {}", groupedDigits(tied), tied == 1 ? "socket" : "sockets")
                   : fmt::format("{} of {} traced sockets on captured connections", groupedDigits(tied),
                                 groupedDigits(alignment.sockets.size()));
    }
    uint64_t connects = 0;
    uint64_t failed = 0;
    for (const AlignedLog& log : alignment.logs) {
        for (const SyscallRecord& call : log.log.records) {
            connects += call.kind == SyscallKind::Connect ? 1 : 0;
            failed += failedForWantOfPort(call) ? 1 : 0;
        }
    }
    if (connects == 0) {
        return "no traced socket";
    }
    return fmt::format("{} traced connect() {}{}", groupedDigits(connects), connects == 1 ? "call" : "calls",
                       failed == 0 ? std::string() : fmt::format(", {} failed with EADDRNOTAVAIL", groupedDigits(failed)));
}

}  // namespace tcpscope
