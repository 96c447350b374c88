#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "records/record_sink.hpp"

namespace tcpscope {

/// The table that holds records of `type`: "flows", "findings" or "series".
std::string_view clickHouseTable(RecordType type);

/// CREATE DATABASE and CREATE TABLE statements (IF NOT EXISTS) for `database`, in order: the layout
/// of docs/records.md (MergeTree, partitioned by day, ordered by host and time).
std::vector<std::string> clickHouseSchema(const std::string& database);

}  // namespace tcpscope
