#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "finding/finding.hpp"
#include "finding/finding_enrichment.hpp"
#include "records/record_source.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// Which record of one finding this is: a file's finding has one (revision 0, final); a live capture
/// sends a finding again as it grows, each time with the next revision, the last one final.
struct FindingRevision {
    uint32_t revision = 0;
    bool final = true;
};

/// What a `finding` record says, copied out of a finding and its flow by the thread that owns them,
/// so that another thread can write the line (a live capture's sink). The evidence is the costly part
/// to copy: it is left out (an empty object) unless asked for.
struct FindingRecordParts {
    uint32_t id = 0;
    FindingKind kind = FindingKind::DelayedAckStall;
    Severity severity = Severity::Info;
    int64_t tsNs = 0;
    double durationMs = 0;
    FindingImpact impact;
    int64_t flowId = -1;
    std::string communityId;
    std::string client;
    std::string server;
    std::string summary;
    std::vector<uint32_t> frames;
    nlohmann::json evidence = nlohmann::json::object();
    bool ongoing = false;
    bool provisional = false;
    bool withdrawn = false;
};

/// The parts of `finding`'s record, with what its `enrichment` adds (its summary and evidence say the
/// strace verdicts); `flow` is its connection, or null for a finding about a host or a service (its
/// client and server are then the parties it names: Finding::parties).
FindingRecordParts findingRecordParts(const Finding& finding, const FindingEnrichment& enrichment,
                                      const Connection* flow, bool withEvidence);

/// The `finding` record (docs/records.md) of those parts.
std::string findingRecord(const RecordSource& source, const FindingRecordParts& parts, FindingRevision revision);

/// The `finding` record of a complete finding, its evidence included.
inline std::string findingRecord(const RecordSource& source, const Finding& finding,
                                 const FindingEnrichment& enrichment, const Connection* flow,
                                 FindingRevision revision = {}) {
    return findingRecord(source, findingRecordParts(finding, enrichment, flow, true), revision);
}

}  // namespace tcpscope
