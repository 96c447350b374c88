#pragma once
#include <string>

#include "records/record_source.hpp"
#include "report/time_lost.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// The `flow` record of one connection generation (docs/records.md), with the time its findings cost.
std::string flowRecord(const RecordSource& source, const Connection& connection, const TimeLostByKind& timeLost);

}  // namespace tcpscope
