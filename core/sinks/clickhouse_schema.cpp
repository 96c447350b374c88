#include "sinks/clickhouse_schema.hpp"

#include <fmt/format.h>

namespace tcpscope {

namespace {

// The fields every record has (records/record_header.hpp), the sink's batch id, and the time the
// table is partitioned and sorted by: ClickHouse 18.16 has no DateTime64, so it is derived from ts_ns.
constexpr const char* kCommonColumns =
    "record String, schema String, host String, capture_id String, tcpscope_version String, "
    "ts_ns Int64, community_id String, batch_id String, "
    "time DateTime('UTC') MATERIALIZED toDateTime(intDiv(ts_ns, 1000000000), 'UTC')";

constexpr const char* kFlowColumns =
    "flow_id UInt32, client_ip String, client_port UInt16, server_ip String, server_port UInt16, "
    "end_ts_ns Int64, state String, midstream UInt8, active_closer String, reset_by String, "
    "packets_c2s UInt64, packets_s2c UInt64, bytes_c2s UInt64, bytes_s2c UInt64, "
    "retransmitted_bytes_c2s UInt64, retransmitted_bytes_s2c UInt64, "
    "handshake_rtt_ms Nullable(Float64), syn_count UInt32, reused_from Int64, "
    "time_lost_ms Float64, time_lost_kinds Array(String), time_lost_kinds_ms Array(Float64)";

constexpr const char* kFindingColumns =
    "finding_id UInt32, kind String, severity String, flow_id Int64, duration_ms Float64, "
    "wall_ms Float64, connections UInt32, delayed_requests UInt64, p50_ms Float64, p99_ms Float64, max_ms Float64, "
    "connection_ms Float64, client String, server String, summary String, frames Array(UInt32), evidence String, "
    "revision UInt32, final UInt8, ongoing UInt8, provisional UInt8, withdrawn UInt8";

constexpr const char* kSeriesColumns =
    "series String, interval_s UInt32, value Int64, subject String, server String, role String, capacity UInt32";

const char* columnsOf(RecordType type) {
    switch (type) {
        case RecordType::Flow: return kFlowColumns;
        case RecordType::Finding: return kFindingColumns;
        case RecordType::Series: return kSeriesColumns;
    }
    return kFlowColumns;
}

}  // namespace

std::string_view clickHouseTable(RecordType type) {
    switch (type) {
        case RecordType::Flow: return "flows";
        case RecordType::Finding: return "findings";
        case RecordType::Series: return "series";
    }
    return "flows";
}

const std::vector<ClickHouseColumn>& clickHouseAddedFindingColumns() {
    // A file's finding is final at revision 0; what an older table lacks reads as that.
    static const std::vector<ClickHouseColumn> columns{{"revision", "UInt32 DEFAULT 0"},
                                                       {"final", "UInt8 DEFAULT 1"},
                                                       {"ongoing", "UInt8 DEFAULT 0"},
                                                       {"provisional", "UInt8 DEFAULT 0"},
                                                       {"withdrawn", "UInt8 DEFAULT 0"}};
    return columns;
}

std::vector<std::string> clickHouseSchema(const std::string& database) {
    std::vector<std::string> statements{fmt::format("CREATE DATABASE IF NOT EXISTS {}", database)};
    for (const RecordType type : {RecordType::Flow, RecordType::Finding, RecordType::Series}) {
        statements.push_back(
            fmt::format("CREATE TABLE IF NOT EXISTS {}.{} ({}, {}) ENGINE = MergeTree PARTITION BY toYYYYMMDD(time) "
                        "ORDER BY (host, time)",
                        database, clickHouseTable(type), kCommonColumns, columnsOf(type)));
    }
    return statements;
}

}  // namespace tcpscope
