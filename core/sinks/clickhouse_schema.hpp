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

/// A column and its type (with its default) for ALTER TABLE ... ADD COLUMN.
struct ClickHouseColumn {
    const char* name;
    const char* type;
};

/// The columns of `findings` that tables made by an older tcpscope lack and the fleet queries read
/// (a finding's revision, docs/records.md): the sink adds those missing (ClickHouse 18.16 has no
/// ADD COLUMN IF NOT EXISTS).
const std::vector<ClickHouseColumn>& clickHouseAddedFindingColumns();

}  // namespace tcpscope
