#include "records/finding_record.hpp"

#include <initializer_list>

#include "records/community_id.hpp"
#include "records/record_line.hpp"
#include "report/finding_evidence.hpp"

namespace tcpscope {

namespace {

// The first of `keys` whose value in the evidence is a string, or "".
std::string evidenceText(const nlohmann::json& evidence, std::initializer_list<const char*> keys) {
    if (!evidence.is_object()) {
        return {};
    }
    for (const char* key : keys) {
        const auto found = evidence.find(key);
        if (found != evidence.end() && found->is_string()) {
            return found->get<std::string>();
        }
    }
    return {};
}

}  // namespace

std::string findingRecord(const RecordSource& source, const Finding& finding, const Connection* flow,
                          FindingRevision revision) {
    RecordLine record(source, RecordType::Finding, finding.tsNs,
                      flow != nullptr ? communityIdV1(flow->client, flow->server) : std::string());
    record.field("finding_id", finding.id);
    record.field("kind", findingKindName(finding.kind));
    record.field("severity", severityName(finding.severity));
    record.field("flow_id", flow != nullptr ? int64_t{flow->id} : int64_t{-1});
    record.field("duration_ms", finding.durationMs);
    // The impact flat, as columns a dashboard sums and sorts by (the report's `impact`).
    record.field("wall_ms", finding.impact.wallMs);
    record.field("connections", finding.impact.connections);
    record.field("delayed_requests", finding.impact.delayedRequests);
    record.field("p50_ms", finding.impact.p50Ms);
    record.field("p99_ms", finding.impact.p99Ms);
    record.field("max_ms", finding.impact.maxMs);
    record.field("connection_ms", finding.impact.connectionMs);
    if (flow != nullptr) {
        record.field("client", flow->client.toString());
        record.field("server", flow->server.toString());
    } else {
        // A host-level finding names its parties in its evidence; time_wait_churn names the one
        // host that holds TIME_WAIT, a server when its role says so.
        const bool hostIsServer = evidenceText(finding.evidence, {"role"}) == "server";
        const std::string host = evidenceText(finding.evidence, {"host"});
        std::string client = evidenceText(finding.evidence, {"client", "sender", "source"});
        std::string server = evidenceText(finding.evidence, {"server", "listener", "receiver", "target"});
        if (!host.empty()) {
            (hostIsServer ? server : client) = host;
        }
        record.field("client", client);
        record.field("server", server);
    }
    record.field("summary", finding.summary);
    record.field("frames", std::span<const uint32_t>(finding.frames));
    const nlohmann::json evidence = hasStraceEvidence(finding) ? findingEvidenceJson(finding) : finding.evidence;
    record.field("evidence", evidence.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    record.field("revision", revision.revision);
    record.field("final", uint64_t{revision.final ? 1u : 0u});
    record.field("ongoing", uint64_t{finding.ongoing ? 1u : 0u});
    record.field("provisional", uint64_t{finding.provisional ? 1u : 0u});
    record.field("withdrawn", uint64_t{finding.withdrawn ? 1u : 0u});
    return std::move(record).take();
}

}  // namespace tcpscope
