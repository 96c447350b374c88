#include "report/finding_evidence.hpp"

#include <cmath>

namespace tcpscope {

namespace {

double roundedMs(int64_t ns) {
    return std::round(static_cast<double>(ns) / 1e3) / 1e3;
}

nlohmann::json callJson(const TracedCall& call) {
    return {
        {"call", call.name}, {"bytes", call.bytes}, {"ts", static_cast<double>(call.tsNs) / 1e9}, {"line", call.line}};
}

nlohmann::json traceJson(const StraceVerdict& verdict) {
    nlohmann::json trace = {{"pid", verdict.pid},
                            {"fd", verdict.fd},
                            {"held_write", callJson(verdict.heldWrite)},
                            {"kernel_hold_ms", verdict.kernelHoldMs},
                            {"nodelay_set", verdict.nodelaySet}};
    trace["next_call"] = verdict.nextCall;
    trace["pattern"] = verdict.pattern;
    if (verdict.firstWrite) {
        trace["first_write"] = callJson(*verdict.firstWrite);
    }
    return trace;
}

// The per-stall verdicts into the evidence's instances (one per span, in the same order), and
// their count for the finding.
void addStallVerdicts(const Finding& finding, nlohmann::json& evidence) {
    int confirmed = 0;
    int refuted = 0;
    int untraced = 0;
    bool nodelay = false;
    std::string pattern;
    nlohmann::json& instances = evidence["instances"];
    for (size_t index = 0; index < finding.straceVerdicts.size(); ++index) {
        const StraceVerdict& verdict = finding.straceVerdicts[index];
        nlohmann::json& instance = instances[index];
        instance["verdict"] = std::string(straceVerdictName(verdict.verdict));
        if (verdict.verdict == StraceVerdictKind::NoTrace) {
            ++untraced;
            continue;
        }
        instance["strace"] = traceJson(verdict);
        nodelay |= verdict.nodelaySet;
        pattern = verdict.pattern;
        (verdict.verdict == StraceVerdictKind::Confirmed ? confirmed : refuted)++;
    }
    evidence["strace"] = {{"confirmed", confirmed},
                          {"refuted", refuted},
                          {"without_trace", untraced},
                          {"nodelay_set", nodelay},
                          {"pattern", pattern}};
}

}  // namespace

bool hasStraceEvidence(const Finding& finding) {
    return !finding.straceVerdicts.empty() || finding.failedConnects.has_value();
}

nlohmann::json findingEvidenceJson(const Finding& finding) {
    nlohmann::json evidence = finding.evidence;
    if (!finding.straceVerdicts.empty()) {
        addStallVerdicts(finding, evidence);
    }
    if (const auto& failed = finding.failedConnects) {
        evidence["strace"] = failedConnectsJson(*failed);
    }
    return evidence;
}

nlohmann::json failedConnectsJson(const FailedConnects& failed) {
    return {{"eaddrnotavail_connects", failed.count},
            {"first_ts", static_cast<double>(failed.firstTsNs) / 1e9},
            {"last_ts", static_cast<double>(failed.lastTsNs) / 1e9},
            {"span_ms", roundedMs(failed.lastTsNs - failed.firstTsNs)}};
}

}  // namespace tcpscope
