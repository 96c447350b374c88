#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sinks/sink_spec.hpp"

namespace tcpscope {

/// Runs `sql` on the server (FORMAT JSONEachRow is appended) and returns its rows. Throws
/// std::runtime_error with the server's message or the connection's failure.
std::vector<nlohmann::json> queryRows(const ClickHouseTarget& target, const std::string& sql, double timeoutSeconds);

/// The integer `key` of a row: ClickHouse 18.16 quotes 64-bit integers in JSON, smaller ones not.
int64_t rowInteger(const nlohmann::json& row, const char* key);

}  // namespace tcpscope
