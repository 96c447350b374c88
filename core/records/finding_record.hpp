#pragma once
#include <string>

#include "detect/finding.hpp"
#include "records/record_source.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// Which record of one finding this is: a file's finding has one (revision 0, final); a live capture
/// sends a finding again as it grows, each time with the next revision, the last one final.
struct FindingRevision {
    uint32_t revision = 0;
    bool final = true;
};

/// The `finding` record of a complete finding (docs/records.md); `flow` is its connection, or null for
/// a finding about a host or a service (its client and server then come from its evidence).
std::string findingRecord(const RecordSource& source, const Finding& finding, const Connection* flow,
                          FindingRevision revision = {});

}  // namespace tcpscope
