#include "align/stall_confirmation.hpp"

#include <algorithm>
#include <cmath>

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

namespace tcpscope {

namespace {

constexpr int kEaddrnotavail = 99;             // Linux errno
constexpr int64_t kRefuteBelowNs = 1'000'000;  // bytes written this close to their departure were not held

double toMs(int64_t ns) { return std::round(static_cast<double>(ns) / 1e3) / 1e3; }

// The capture time of a frame (0 if it is not a TCP packet of the index).
int64_t frameTsNs(const PacketIndex& packets, uint32_t frame) {
    const size_t position = packets.positionOfFrame(frame);
    return position < packets.size() ? packets.tsNs(position) : 0;
}

// The write records of one socket by the frames that carried their bytes.
absl::flat_hash_map<uint32_t, uint32_t> writesByFrame(const StraceAlignment& alignment, uint32_t socket) {
    absl::flat_hash_map<uint32_t, uint32_t> byFrame;
    const TracedSocket& traced = alignment.sockets[socket];
    const StraceLog& log = alignment.logs[traced.log].log;
    for (uint32_t record : traced.records) {
        if (log.records[record].kind != SyscallKind::Write) {
            continue;
        }
        if (const CallLink* link = alignment.linkOf(socket, record)) {
            for (uint32_t frame : link->frames) {
                byFrame.try_emplace(frame, record);
            }
        }
    }
    return byFrame;
}

// The first call after `record` in the same process that waits or reads: what the process did
// once it had written.
std::string nextBlockingCall(const StraceLog& log, uint32_t record) {
    const SyscallRecord& after = log.records[record];
    for (uint32_t index : log.recordIndexesOf(after.pid)) {
        const SyscallRecord& candidate = log.records[index];
        if (candidate.tsNs < after.tsNs || index == record ||
            (candidate.tsNs == after.tsNs && index < record)) {
            continue;
        }
        if (candidate.kind == SyscallKind::Wait || candidate.kind == SyscallKind::Read) {
            return std::string(log.nameOf(candidate));
        }
    }
    return {};
}

nlohmann::json callJson(const StraceAlignment& alignment, uint32_t logIndex, uint32_t record) {
    const StraceLog& log = alignment.logs[logIndex].log;
    const SyscallRecord& call = log.records[record];
    return {{"call", std::string(log.nameOf(call))},
            {"bytes", call.bytes},
            {"ts", static_cast<double>(alignment.captureTsNs(logIndex, call)) / 1e9},
            {"line", call.lineNumber}};
}

void confirmDelayedAck(Finding& finding, const StraceAlignment& alignment, const AnalysisEngine& engine) {
    const Side sender = finding.evidence.value("sender_side", "client") == "server" ? Side::Server : Side::Client;
    uint32_t socket = UINT32_MAX;
    for (uint32_t candidate : alignment.connectionSockets[finding.connection]) {
        if (alignment.sockets[candidate].side == sender) {
            socket = candidate;
        }
    }
    int confirmed = 0;
    int refuted = 0;
    int untraced = 0;
    bool nodelay = false;
    std::string pattern;
    const absl::flat_hash_map<uint32_t, uint32_t> writes =
        socket == UINT32_MAX ? absl::flat_hash_map<uint32_t, uint32_t>{} : writesByFrame(alignment, socket);
    for (auto& instance : finding.evidence["instances"]) {
        const auto frames = instance["frames"].get<std::vector<uint32_t>>();
        const auto heldWrite = frames.size() == 3 ? writes.find(frames[2]) : writes.end();
        if (heldWrite == writes.end()) {
            instance["verdict"] = "no_trace";
            ++untraced;
            continue;
        }
        const TracedSocket& traced = alignment.sockets[socket];
        const StraceLog& log = alignment.logs[traced.log].log;
        const SyscallRecord& held = log.records[heldWrite->second];
        const int64_t leftNs = frameTsNs(engine.packets(), frames[2]);
        const int64_t kernelHoldNs = leftNs - alignment.captureTsNs(traced.log, held);
        const bool nodelaySet = traced.nodelaySet && traced.nodelayTsNs <= held.tsNs;
        nodelay |= nodelaySet;
        nlohmann::json trace = {{"pid", held.pid},
                                {"fd", traced.fd},
                                {"held_write", callJson(alignment, traced.log, heldWrite->second)},
                                {"kernel_hold_ms", toMs(kernelHoldNs)},
                                {"nodelay_set", nodelaySet}};
        const std::string next = nextBlockingCall(log, heldWrite->second);
        trace["next_call"] = next;
        const auto firstWrite = writes.find(frames[0]);
        const std::string_view firstName =
            firstWrite != writes.end() ? log.nameOf(log.records[firstWrite->second]) : log.nameOf(held);
        const std::string shape =
            fmt::format("{}, {}, {}", firstName, log.nameOf(held), next.empty() ? std::string("?") : next);
        trace["pattern"] = shape;
        if (firstWrite != writes.end()) {
            trace["first_write"] = callJson(alignment, traced.log, firstWrite->second);
        }
        pattern = shape;
        // Held by the kernel for most of the stall: Nagle. Written just before leaving: the application was late.
        const double holdMs = instance.value("hold_ms", 0.0);
        const bool wasHeld = kernelHoldNs >= kRefuteBelowNs && toMs(kernelHoldNs) >= holdMs * 0.5;
        instance["verdict"] = wasHeld ? "confirmed" : "refuted";
        instance["strace"] = std::move(trace);
        (wasHeld ? confirmed : refuted)++;
    }
    finding.evidence["strace"] = {{"confirmed", confirmed},
                                  {"refuted", refuted},
                                  {"without_trace", untraced},
                                  {"nodelay_set", nodelay},
                                  {"pattern", pattern}};
    if (confirmed > 0) {
        finding.summary += fmt::format(
            " The system call trace confirms {} of them: the application wrote the bytes ({}) and the kernel "
            "held them until the ACK{}.",
            confirmed, pattern, nodelay ? ", although TCP_NODELAY was set" : "; TCP_NODELAY was never set");
    } else if (refuted > 0) {
        finding.summary += fmt::format(
            " The system call trace does not support it: the application wrote the late bytes only just "
            "before they left ({} of {} stalls).",
            refuted, refuted + untraced);
    }
}

void addFailedConnects(Finding& finding, const StraceAlignment& alignment) {
    const std::string server = finding.evidence.value("server", "");
    int64_t first = INT64_MAX;
    int64_t last = INT64_MIN;
    uint64_t count = 0;
    for (uint32_t logIndex = 0; logIndex < alignment.logs.size(); ++logIndex) {
        for (const SyscallRecord& call : alignment.logs[logIndex].log.records) {
            if (call.kind != SyscallKind::Connect || call.returnKind != ReturnKind::Error ||
                call.errnoCode != kEaddrnotavail) {
                continue;
            }
            if (!server.empty() && call.hasAddress() && call.address.toString() != server) {
                continue;
            }
            ++count;
            first = std::min(first, alignment.captureTsNs(logIndex, call));
            last = std::max(last, alignment.captureTsNs(logIndex, call));
        }
    }
    if (count == 0) {
        return;
    }
    finding.evidence["strace"] = {{"eaddrnotavail_connects", count},
                                  {"first_ts", static_cast<double>(first) / 1e9},
                                  {"last_ts", static_cast<double>(last) / 1e9},
                                  {"span_ms", toMs(last - first)}};
    finding.summary += fmt::format(" The trace shows {} connect() calls failing with EADDRNOTAVAIL over {:.1f} s.",
                                   count, static_cast<double>(last - first) / 1e9);
}

}  // namespace

void confirmFindingsWithSyscalls(std::vector<Finding>& findings, const StraceAlignment& alignment,
                                 const AnalysisEngine& engine) {
    for (Finding& finding : findings) {
        if (finding.kind == FindingKind::DelayedAckStall && finding.connection < alignment.connectionSockets.size()) {
            confirmDelayedAck(finding, alignment, engine);
        } else if (finding.kind == FindingKind::PortExhaustion) {
            addFailedConnects(finding, alignment);
        }
    }
}

}  // namespace tcpscope
