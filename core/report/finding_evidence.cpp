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

// The verdicts on the spans into the evidence's instances (one per span, in the same order), and
// their count for the finding.
void addStallVerdicts(const std::vector<StraceVerdict>& verdicts, nlohmann::json& evidence) {
    nlohmann::json& instances = evidence["instances"];
    for (size_t index = 0; index < verdicts.size(); ++index) {
        const StraceVerdict& verdict = verdicts[index];
        nlohmann::json& instance = instances[index];
        instance["verdict"] = std::string(straceVerdictName(verdict.verdict));
        if (verdict.verdict != StraceVerdictKind::NoTrace) {
            instance["strace"] = traceJson(verdict);
        }
    }
    const VerdictCounts counts = countVerdicts(verdicts);
    evidence["strace"] = {{"confirmed", counts.confirmed},
                          {"refuted", counts.refuted},
                          {"without_trace", counts.untraced},
                          {"nodelay_set", counts.nodelaySet},
                          {"pattern", counts.pattern}};
}

}  // namespace

bool hasStraceEvidence(const FindingEnrichment& enrichment) {
    return !enrichment.straceVerdicts.empty() || enrichment.failedConnects.has_value();
}

nlohmann::json findingEvidenceJson(const Finding& finding, const FindingEnrichment& enrichment) {
    nlohmann::json evidence = finding.evidence;
    if (!enrichment.straceVerdicts.empty()) {
        addStallVerdicts(enrichment.straceVerdicts, evidence);
    }
    if (const auto& failed = enrichment.failedConnects) {
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
