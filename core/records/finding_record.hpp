#pragma once
#include <string>

#include "detect/finding.hpp"
#include "records/record_source.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// The `finding` record of a complete finding (docs/records.md); `flow` is its connection, or null for
/// a finding about a host or a service (its client and server then come from its evidence).
std::string findingRecord(const RecordSource& source, const Finding& finding, const Connection* flow);

}  // namespace tcpscope
