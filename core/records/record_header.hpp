#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "records/record_sink.hpp"
#include "records/record_source.hpp"

namespace tcpscope {

/// A record being built: fields in the order they are added (the order of docs/records.md).
using RecordJson = nlohmann::ordered_json;

inline constexpr const char* kRecordSchema = "tcpscope-record/1";

/// The fields every record starts with: record, schema, host, capture_id, tcpscope_version, ts_ns,
/// community_id ("" for a record of no single flow).
RecordJson recordHeader(const RecordSource& source, RecordType type, int64_t tsNs, std::string communityId);

/// The record on one line, without a newline; invalid UTF-8 (a capture's comment, a host name) is
/// replaced, never thrown on.
std::string recordLine(const RecordJson& record);

}  // namespace tcpscope
