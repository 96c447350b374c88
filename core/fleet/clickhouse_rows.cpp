#include "fleet/clickhouse_rows.hpp"

#include <fmt/format.h>

#include <sstream>
#include <stdexcept>

#include "sinks/http_client.hpp"

namespace tcpscope {

std::vector<nlohmann::json> queryRows(const ClickHouseTarget& target, const std::string& sql, double timeoutSeconds) {
    HttpClient http(target.access());
    const HttpResult result = http.post(target.httpBase(), sql + " FORMAT JSONEachRow", timeoutSeconds);
    if (!result.ok()) {
        const std::string reason =
            result.outcome == HttpResult::Outcome::Answered
                ? fmt::format("HTTP {}: {}", result.status, result.body.substr(0, result.body.find('\n')))
                : result.error;
        throw std::runtime_error(fmt::format("{}: {}", target.text(), reason));
    }
    std::vector<nlohmann::json> rows;
    std::istringstream lines(result.body);
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty()) {
            rows.push_back(nlohmann::json::parse(line));
        }
    }
    return rows;
}

int64_t rowInteger(const nlohmann::json& row, const char* key) {
    const auto& value = row.at(key);
    return value.is_string() ? std::stoll(value.get<std::string>()) : value.get<int64_t>();
}

}  // namespace tcpscope
