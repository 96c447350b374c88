#include "fleet/fleet_findings.hpp"

#include <fmt/format.h>

#include "fleet/clickhouse_rows.hpp"

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
    std::vector<FleetFinding> findings;
    for (const nlohmann::json& row :
         queryRows(target, sameFindingOnManyHostsSql(target.database, options), options.timeoutSeconds)) {
        FleetFinding finding;
        finding.kind = row.at("kind").get<std::string>();
        finding.server = row.at("server").get<std::string>();
        finding.severity = row.at("severity").get<std::string>();
        finding.hosts = row.at("host_names").get<std::vector<std::string>>();
        finding.findings = static_cast<uint64_t>(rowInteger(row, "findings"));
        finding.durationMs = row.at("duration_ms").get<double>();
        finding.windowStartNs = rowInteger(row, "window_start") * 1'000'000'000;
        finding.firstTsNs = rowInteger(row, "first_ts_ns");
        finding.lastTsNs = rowInteger(row, "last_ts_ns");
        findings.push_back(std::move(finding));
    }
    return findings;
}

}  // namespace tcpscope
