#include "fleet/fleet_findings.hpp"

#include <fmt/format.h>

#include "fleet/clickhouse_rows.hpp"

namespace tcpscope {

std::string sameFindingOnManyHostsSql(const std::string& database, const FleetQueryOptions& options) {
    // Each finding counts once, as its latest revision says (a live capture sends a finding again as
    // it grows, docs/records.md), and not at all if that one was withdrawn. The inner columns are
    // named apart from the table's: ClickHouse 18.16 would take an alias equal to a column's name
    // for the aggregate in WHERE. It quotes 64-bit integers in JSON output; the times are read as strings.
    return fmt::format(
        R"(SELECT latest_kind AS kind, latest_server AS server,
       intDiv(toUInt32(latest_time), {window}) * {window} AS window_start,
       uniqExact(host) AS hosts, arraySort(groupUniqArray(host)) AS host_names, count() AS findings,
       sum(latest_duration_ms) AS duration_ms, min(latest_ts_ns) AS first_ts_ns, max(latest_ts_ns) AS last_ts_ns,
       ['error', 'warning', 'info'][min(multiIf(latest_severity = 'error', 1, latest_severity = 'warning', 2, 3))] AS severity
FROM (
    SELECT host, argMax(kind, revision) AS latest_kind, argMax(server, revision) AS latest_server,
           argMax(time, revision) AS latest_time, argMax(ts_ns, revision) AS latest_ts_ns,
           argMax(duration_ms, revision) AS latest_duration_ms, argMax(severity, revision) AS latest_severity,
           argMax(withdrawn, revision) AS latest_withdrawn
    FROM {database}.findings
    WHERE ts_ns >= {since}
    GROUP BY host, capture_id, finding_id)
WHERE latest_server != '' AND latest_withdrawn = 0
GROUP BY kind, server, window_start HAVING hosts >= {minHosts}
ORDER BY hosts DESC, duration_ms DESC, kind, server, window_start)",
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
