#include "fleet/fleet_findings.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "export/http_client.hpp"

namespace tcpscope {

std::string sameFindingOnManyHostsSql(const std::string& database, const FleetQueryOptions& options) {
    // ClickHouse 18.16 quotes 64-bit integers in JSON output; the times are read as strings.
    return fmt::format(
        "SELECT kind, server, intDiv(toUInt32(time), {window}) * {window} AS window_start, "
        "uniqExact(host) AS hosts, arraySort(groupUniqArray(host)) AS host_names, count() AS findings, "
        "sum(duration_ms) AS duration_ms, min(ts_ns) AS first_ts_ns, max(ts_ns) AS last_ts_ns, "
        "['error', 'warning', 'info'][min(multiIf(severity = 'error', 1, severity = 'warning', 2, 3))] AS severity "
        "FROM {database}.findings "
        "WHERE ts_ns >= {since} AND server != '' "
        "GROUP BY kind, server, window_start HAVING hosts >= {minHosts} "
        "ORDER BY hosts DESC, duration_ms DESC, kind, server, window_start",
        fmt::arg("window", options.windowSeconds), fmt::arg("database", database), fmt::arg("since", options.sinceNs),
        fmt::arg("minHosts", options.minHosts));
}

std::vector<FleetFinding> querySameFindingOnManyHosts(const ClickHouseTarget& target,
                                                      const FleetQueryOptions& options) {
    HttpClient http;
    const HttpResult result =
        http.post(target.httpBase(), sameFindingOnManyHostsSql(target.database, options) + " FORMAT JSONEachRow",
                  options.timeoutSeconds);
    if (!result.ok()) {
        const std::string reason =
            result.outcome == HttpResult::Outcome::Answered
                ? fmt::format("HTTP {}: {}", result.status, result.body.substr(0, result.body.find('\n')))
                : result.error;
        throw std::runtime_error(fmt::format("{}: {}", target.text(), reason));
    }
    std::vector<FleetFinding> findings;
    std::istringstream lines(result.body);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty()) {
            continue;
        }
        const nlohmann::json row = nlohmann::json::parse(line);
        const auto number = [&](const char* key) {  // a quoted 64-bit integer, or a plain number
            const auto& value = row.at(key);
            return value.is_string() ? std::stoll(value.get<std::string>()) : value.get<int64_t>();
        };
        FleetFinding finding;
        finding.kind = row.at("kind").get<std::string>();
        finding.server = row.at("server").get<std::string>();
        finding.severity = row.at("severity").get<std::string>();
        finding.hosts = row.at("host_names").get<std::vector<std::string>>();
        finding.findings = static_cast<uint64_t>(number("findings"));
        finding.durationMs = row.at("duration_ms").get<double>();
        finding.windowStartNs = number("window_start") * 1'000'000'000;
        finding.firstTsNs = number("first_ts_ns");
        finding.lastTsNs = number("last_ts_ns");
        findings.push_back(std::move(finding));
    }
    return findings;
}

}  // namespace tcpscope
