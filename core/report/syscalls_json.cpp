#include "report/syscalls_json.hpp"

#include <cmath>
#include <map>

#include "align/flow_time_breakdown.hpp"
#include "present/value_format.hpp"

namespace tcpscope {

namespace {

double roundedMs(double ms) { return std::round(ms * 1000) / 1000; }

Json resultJson(const StraceLog& log, const SyscallRecord& call) {
    (void)log;
    switch (call.returnKind) {
        case ReturnKind::Value: return call.returnValue;
        case ReturnKind::Error: return Json{{"errno", call.errnoCode}};
        case ReturnKind::None: return "?";
        case ReturnKind::Missing: return nullptr;
    }
    return nullptr;
}

Json scoreJson(const ByteTimingScore& score) {
    return Json{{"score", std::round(score.score * 100) / 100},
                {"fitting_calls", score.fittingCalls},
                {"compared_calls", score.comparedCalls},
                {"contradictions", score.contradictions}};
}

// A traced socket and how it was tied to its connection.
Json socketJson(const TracedSocket& socket) {
    Json entry{{"pid", socket.pid},
               {"fd", socket.fd},
               {"side", sideName(socket.side)},
               {"matched_by", socketMatchName(socket.match)},
               {"nodelay_set", socket.nodelaySet}};
    if (socket.match == SocketMatch::Connect || socket.match == SocketMatch::Accept) {
        entry["history_call"] = socketHistoryCall(socket.match);
    }
    if (socket.match == SocketMatch::BytesTiming) {
        Json match = scoreJson(socket.byteTiming);
        match["runner_up_score"] = std::round(socket.runnerUpScore * 100) / 100;
        entry["bytes_timing"] = std::move(match);
    }
    return entry;
}

}  // namespace

Json syscallsJson(const StraceAlignment& alignment) {
    Json logs = Json::array();
    for (uint32_t index = 0; index < alignment.logs.size(); ++index) {
        const AlignedLog& aligned = alignment.logs[index];
        const StraceLog& log = aligned.log;
        std::map<std::string, uint64_t> byKind;
        for (const SyscallRecord& record : log.records) {
            ++byKind[std::string(syscallKindName(record.kind))];
        }
        Json kinds = Json::object();
        for (const auto& [kind, count] : byKind) {
            kinds[kind] = count;
        }
        Json sockets = Json::array();
        for (const TracedSocket& socket : alignment.sockets) {
            if (socket.log != index || socket.connection == kNoConnection) {
                continue;
            }
            Json entry = socketJson(socket);
            entry["flow"] = socket.connection;
            sockets.push_back(std::move(entry));
        }
        Json ambiguous = Json::array();
        for (const AmbiguousSocket& refused : alignment.ambiguous) {
            const TracedSocket& socket = alignment.sockets[refused.socket];
            if (socket.log != index) {
                continue;
            }
            Json candidates = Json::array();
            for (const ByteTimingScore& candidate : refused.candidates) {
                Json entry = scoreJson(candidate);
                entry["flow"] = candidate.connection;
                entry["side"] = sideName(candidate.side);
                candidates.push_back(std::move(entry));
            }
            ambiguous.push_back(Json{{"pid", socket.pid}, {"fd", socket.fd}, {"candidates", std::move(candidates)}});
        }
        const ClockFit& clock = aligned.clock;
        Json clockJson{{"time_base", straceTimeBaseName(log.format.timeBase)},
                       {"offset_ms", roundedMs(static_cast<double>(clock.offsetNs) / 1e6)},
                       {"residual_ms", roundedMs(static_cast<double>(clock.residualNs) / 1e6)},
                       {"method", clock.method},
                       {"matched_writes", clock.matchedWrites},
                       {"prompt_share", std::round(clock.promptShare * 1000) / 1000},
                       {"p90_prompt_ms", roundedMs(clock.p90PromptMs)}};
        if (log.format.timeBase == StraceTimeBase::TimeOfDay) {
            clockJson["tz_offset_minutes"] = clock.tzOffsetMinutes;
            clockJson["tz_given"] = clock.tzGiven;
        }
        if (clock.searched) {
            clockJson["search"] = Json{{"writes", clock.searchWrites}, {"peak_writes", clock.searchPeakWrites}};
        }
        Json entry{{"files", aligned.files},
                   {"format", log.format.describe()},
                   {"pids", log.pids()},
                   {"records", log.records.size()},
                   {"calls_by_kind", kinds},
                   {"unparsed_lines", log.stats.unparsedLines},
                   {"clock", clockJson},
                   {"sockets", sockets},
                   {"ambiguous_sockets", ambiguous}};
        if (aligned.lostCalls) {
            entry["lost_calls"] = *aligned.lostCalls;
        }
        logs.push_back(std::move(entry));
    }
    return logs;
}

Json flowSyscallsJson(const StraceAlignment& alignment, uint32_t connection, size_t maxCalls) {
    Json sockets = Json::array();
    Json calls = Json::array();
    size_t total = 0;
    if (connection >= alignment.connectionSockets.size()) {
        return nullptr;
    }
    for (uint32_t socketIndex : alignment.connectionSockets[connection]) {
        const TracedSocket& socket = alignment.sockets[socketIndex];
        const StraceLog& log = alignment.logs[socket.log].log;
        sockets.push_back(socketJson(socket));
        for (uint32_t record : socket.records) {
            const SyscallRecord& call = log.records[record];
            const CallLink* link = alignment.linkOf(socketIndex, record);
            if (++total > maxCalls) {
                continue;
            }
            Json entry{{"ts", epochSeconds(alignment.origin, alignment.captureTsNs(socket.log, call))},
                       {"pid", call.pid},
                       {"fd", socket.fd},
                       {"call", std::string(log.nameOf(call))},
                       {"result", resultJson(log, call)}};
            if (call.bytes >= 0) {
                entry["bytes"] = call.bytes;
            }
            if (call.durationNs >= 0) {
                entry["duration_ms"] = roundedMs(static_cast<double>(call.durationNs) / 1e6);
            }
            if (link != nullptr) {
                entry["frames"] = link->frames;
            }
            calls.push_back(std::move(entry));
        }
    }
    if (sockets.empty()) {
        return nullptr;
    }
    const FlowTimeBreakdown time = flowTimeBreakdown(alignment, connection);
    const auto ms = [](int64_t ns) { return roundedMs(static_cast<double>(ns) / 1e6); };
    return Json{{"sockets", sockets},
                {"calls", calls},
                {"calls_truncated", total > maxCalls},
                {"app_blocked_ms", ms(time.blockedNs)},
                {"kernel_held_ms", ms(time.kernelHeldNs)},
                {"time_breakdown",
                 Json{{"blocking_calls", time.blockingCalls},
                      {"calls_without_duration", time.callsWithoutDuration},
                      {"blocked_ms", ms(time.blockedNs)},
                      {"blocked_while_kernel_held_ms", ms(time.blockedWhileHeldNs)},
                      {"blocked_on_peer_ms", ms(time.blockedOnPeerNs)},
                      {"kernel_held_ms", ms(time.kernelHeldNs)},
                      {"held_writes", time.heldWrites}}}};
}

}  // namespace tcpscope
