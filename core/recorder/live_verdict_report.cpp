#include "recorder/live_verdict_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "finding/finding_kind.hpp"

namespace tcpscope {
namespace {

// Epoch seconds with microsecond fractions, as every time in the tcpscope/1 report.
double epochSeconds(int64_t tsNs) {
    return std::round(static_cast<double>(tsNs) / 1e3) / 1e6;
}

double afterStallMs(const LiveStallVerdict& verdict) {
    return std::round(static_cast<double>(verdict.judgedNs - verdict.lastStallEndNs) / 1e5) / 10;
}

uint32_t stallsJudged(const VerdictCounts& counts) {
    return counts.confirmed + counts.refuted + counts.untraced;
}

}  // namespace

nlohmann::ordered_json liveVerdictEventJson(const LiveStallVerdict& verdict) {
    nlohmann::ordered_json event;
    event["event"] = "verdict";
    event["id"] = verdict.findingId;
    event["kind"] = std::string(findingKindName(FindingKind::DelayedAckStall));
    event["flow"] = verdict.connection;
    event["ts"] = epochSeconds(verdict.judgedNs);
    event["verdict"] = std::string(straceVerdictName(verdict.verdict));
    event["stalls"] = stallsJudged(verdict.counts);
    event["confirmed"] = verdict.counts.confirmed;
    event["refuted"] = verdict.counts.refuted;
    event["without_trace"] = verdict.counts.untraced;
    event["stall_ended"] = epochSeconds(verdict.lastStallEndNs);
    event["after_stall_ms"] = afterStallMs(verdict);
    if (verdict.cited) {
        event["pattern"] = verdict.cited->pattern;
        event["held_write_bytes"] = verdict.cited->heldWrite.bytes;
        event["kernel_hold_ms"] = verdict.cited->kernelHoldMs;
        event["nodelay_set"] = verdict.cited->nodelaySet;
    }
    return event;
}

std::string liveVerdictText(const LiveStallVerdict& verdict) {
    const uint32_t stalls = stallsJudged(verdict.counts);
    const std::string after = fmt::format("{:.0f} ms after the stall ended", afterStallMs(verdict));
    switch (verdict.verdict) {
        case StraceVerdictKind::Confirmed:
            return fmt::format(
                "confirmed by the recorded calls ({} of {} {} so far): the application wrote {} bytes ({}) that the "
                "kernel held {:.1f} ms until the ACK{}; {}",
                verdict.counts.confirmed, stalls, stalls == 1 ? "stall" : "stalls",
                verdict.cited ? verdict.cited->heldWrite.bytes : 0, verdict.cited ? verdict.cited->pattern : "?",
                verdict.cited ? verdict.cited->kernelHoldMs : 0.0,
                verdict.cited && verdict.cited->nodelaySet ? ", although TCP_NODELAY was set"
                                                           : "; TCP_NODELAY was never set",
                after);
        case StraceVerdictKind::Refuted:
            return fmt::format(
                "refuted by the recorded calls ({} of {} {} so far): the application wrote the late bytes only {:.1f} "
                "ms "
                "before they left ({}); {}",
                verdict.counts.refuted, stalls, stalls == 1 ? "stall" : "stalls",
                verdict.cited ? verdict.cited->kernelHoldMs : 0.0, verdict.cited ? verdict.cited->pattern : "?", after);
        case StraceVerdictKind::NoTrace:
            return fmt::format("no trace: no recorded write carried the held bytes of its {} {}; {}", stalls,
                               stalls == 1 ? "stall" : "stalls", after);
    }
    return {};
}

nlohmann::ordered_json revisedVerdictEventJson(const RevisedVerdict& revised) {
    return {{"event", "verdict_revised"},
            {"id", revised.live.findingId},
            {"kind", std::string(findingKindName(FindingKind::DelayedAckStall))},
            {"flow", revised.live.connection},
            {"live", std::string(straceVerdictName(revised.live.verdict))},
            {"report", std::string(straceVerdictName(revised.report))}};
}

std::string revisedVerdictText(const RevisedVerdict& revised) {
    return fmt::format(
        "the report says {}, not {} as given live: it reads every call recorded until the end, and its verdict stands",
        straceVerdictName(revised.report), straceVerdictName(revised.live.verdict));
}

}  // namespace tcpscope
