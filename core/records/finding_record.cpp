#include "records/finding_record.hpp"

#include "records/community_id.hpp"
#include "records/record_line.hpp"
#include "report/finding_evidence.hpp"
#include "report/finding_summary.hpp"
#include "text/json_text.hpp"

namespace tcpscope {

FindingRecordParts findingRecordParts(const Finding& finding, const FindingEnrichment& enrichment,
                                      const Connection* flow, bool withEvidence) {
    FindingRecordParts parts;
    parts.id = finding.id;
    parts.kind = finding.kind;
    parts.severity = finding.severity;
    parts.tsNs = finding.tsNs;
    parts.durationMs = finding.durationMs;
    parts.impact = finding.impact;
    if (flow != nullptr) {
        parts.flowId = flow->id;
        parts.communityId = communityIdV1(flow->client, flow->server);
        parts.client = flow->client.toString();
        parts.server = flow->server.toString();
    } else {
        parts.client = finding.parties.client;
        parts.server = finding.parties.server;
    }
    parts.summary = findingSummary(finding, enrichment);
    parts.frames = finding.frames;
    if (withEvidence) {
        parts.evidence = hasStraceEvidence(enrichment) ? findingEvidenceJson(finding, enrichment) : finding.evidence;
    }
    parts.ongoing = finding.ongoing;
    parts.provisional = finding.provisional;
    parts.withdrawn = finding.withdrawn;
    return parts;
}

std::string findingRecord(const RecordSource& source, const FindingRecordParts& parts, FindingRevision revision) {
    RecordLine record(source, RecordType::Finding, parts.tsNs, parts.communityId);
    record.field("finding_id", parts.id);
    record.field("kind", findingKindName(parts.kind));
    record.field("severity", severityName(parts.severity));
    record.field("flow_id", parts.flowId);
    record.field("duration_ms", parts.durationMs);
    // The impact flat, as columns a dashboard sums and sorts by (the report's `impact`).
    record.field("wall_ms", parts.impact.wallMs);
    record.field("connections", parts.impact.connections);
    record.field("delayed_requests", parts.impact.delayedRequests);
    record.field("p50_ms", parts.impact.p50Ms);
    record.field("p99_ms", parts.impact.p99Ms);
    record.field("max_ms", parts.impact.maxMs);
    record.field("connection_ms", parts.impact.connectionMs);
    record.field("client", parts.client);
    record.field("server", parts.server);
    record.field("summary", parts.summary);
    record.field("frames", std::span<const uint32_t>(parts.frames));
    record.field("evidence", jsonText(parts.evidence));
    record.field("revision", revision.revision);
    record.field("final", uint64_t{revision.final ? 1u : 0u});
    record.field("ongoing", uint64_t{parts.ongoing ? 1u : 0u});
    record.field("provisional", uint64_t{parts.provisional ? 1u : 0u});
    record.field("withdrawn", uint64_t{parts.withdrawn ? 1u : 0u});
    return std::move(record).take();
}

}  // namespace tcpscope
