#include "align/stall_confirmation.hpp"

#include <algorithm>
#include <cmath>

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include "align/failed_connects.hpp"

namespace tcpscope {

namespace {

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

TracedCall tracedCall(const StraceAlignment& alignment, uint32_t logIndex, uint32_t record) {
    const StraceLog& log = alignment.logs[logIndex].log;
    const SyscallRecord& call = log.records[record];
    return {std::string(log.nameOf(call)), call.bytes, alignment.captureTsNs(logIndex, call), call.lineNumber};
}

std::vector<StraceVerdict> delayedAckVerdicts(const Finding& finding, const StraceAlignment& alignment,
                                              const AnalysisEngine& engine) {
    const Side sender = finding.waitingSide.value_or(Side::Client);
    uint32_t socket = UINT32_MAX;
    for (uint32_t candidate : alignment.connectionSockets[finding.connection]) {
        if (alignment.sockets[candidate].side == sender) {
            socket = candidate;
        }
    }
    const absl::flat_hash_map<uint32_t, uint32_t> writes =
        socket == UINT32_MAX ? absl::flat_hash_map<uint32_t, uint32_t>{} : writesByFrame(alignment, socket);
    std::vector<StraceVerdict> verdicts(finding.spans.size());
    for (size_t index = 0; index < finding.spans.size(); ++index) {
        const FindingSpan& span = finding.spans[index];
        StraceVerdict& verdict = verdicts[index];
        const std::optional<uint32_t> heldFrame = span.frames.of(FrameRole::HeldSegment);
        const auto heldWrite = heldFrame ? writes.find(*heldFrame) : writes.end();
        if (heldWrite == writes.end()) {
            verdict.verdict = StraceVerdictKind::NoTrace;
            continue;
        }
        const TracedSocket& traced = alignment.sockets[socket];
        const StraceLog& log = alignment.logs[traced.log].log;
        const SyscallRecord& held = log.records[heldWrite->second];
        const int64_t leftNs = frameTsNs(engine.packets(), *heldFrame);
        const int64_t kernelHoldNs = leftNs - alignment.captureTsNs(traced.log, held);
        verdict.pid = held.pid;
        verdict.fd = traced.fd;
        verdict.heldWrite = tracedCall(alignment, traced.log, heldWrite->second);
        verdict.kernelHoldMs = toMs(kernelHoldNs);
        verdict.nodelaySet = traced.nodelaySet && traced.nodelayTsNs <= held.tsNs;
        verdict.nextCall = nextBlockingCall(log, heldWrite->second);
        const std::optional<uint32_t> smallFrame = span.frames.of(FrameRole::SmallSegment);
        const auto firstWrite = smallFrame ? writes.find(*smallFrame) : writes.end();
        const std::string_view firstName =
            firstWrite != writes.end() ? log.nameOf(log.records[firstWrite->second]) : log.nameOf(held);
        verdict.pattern = fmt::format("{}, {}, {}", firstName, log.nameOf(held),
                                      verdict.nextCall.empty() ? std::string("?") : verdict.nextCall);
        if (firstWrite != writes.end()) {
            verdict.firstWrite = tracedCall(alignment, traced.log, firstWrite->second);
        }
        // Held by the kernel for most of the stall: Nagle. Written just before leaving: the application was late.
        const double holdMs = static_cast<double>(span.endNs - span.startNs) / 1e6;
        const bool wasHeld = kernelHoldNs >= kRefuteBelowNs && toMs(kernelHoldNs) >= holdMs * 0.5;
        verdict.verdict = wasHeld ? StraceVerdictKind::Confirmed : StraceVerdictKind::Refuted;
    }
    return verdicts;
}

}  // namespace

std::vector<StraceVerdict> stallVerdicts(const Finding& finding, const StraceAlignment& alignment,
                                         const AnalysisEngine& engine) {
    if (finding.kind != FindingKind::DelayedAckStall || finding.connection >= alignment.connectionSockets.size()) {
        return {};
    }
    return delayedAckVerdicts(finding, alignment, engine);
}

void confirmFindingsWithSyscalls(CaptureAnalysis& analysis, const StraceAlignment& alignment) {
    for (const Finding& finding : analysis.findings) {
        if (finding.kind == FindingKind::DelayedAckStall) {
            std::vector<StraceVerdict> verdicts = stallVerdicts(finding, alignment, *analysis.engine);
            if (!verdicts.empty()) {
                analysis.enrichments.edit(finding.id).straceVerdicts = std::move(verdicts);
            }
        } else if (finding.kind == FindingKind::PortExhaustion) {
            const std::vector<int64_t> times = failedConnectTimes(alignment, finding.server);
            if (!times.empty()) {
                analysis.enrichments.edit(finding.id).failedConnects =
                    FailedConnects{times.size(), times.front(), times.back()};
            }
        }
    }
}

}  // namespace tcpscope
