#include "fleet/port_pool_findings.hpp"

#include <fmt/format.h>

#include "fleet/clickhouse_rows.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

// Per host, client address, server endpoint and UTC second: the ports the pool held. A record of a
// coarser series stands for each of its seconds; the same pool exported twice (or from overlapping
// captures of one host) counts once.
std::string poolSecondsSql(const std::string& database, const FleetQueryOptions& options,
                           std::string_view extraCondition) {
    return fmt::format(
        R"(        SELECT host, subject, server, second, max(value) AS pool_ports, max(capacity) AS pool_capacity
        FROM (
            SELECT host, subject, server, value, capacity,
                   intDiv(ts_ns, 1000000000) + arrayJoin(range(interval_s)) AS second
            FROM {database}.series
            WHERE series = 'ports_in_use' AND ts_ns >= {since} AND capacity > 0{extra})
        GROUP BY host, subject, server, second))",
        fmt::arg("database", database), fmt::arg("since", options.sinceNs), fmt::arg("extra", extraCondition));
}

// The seconds that passed the share, folded into one row per group and window.
std::string summarySql(std::string_view groupColumns, std::string_view poolsColumn, const FleetQueryOptions& options) {
    return fmt::format(R"(SELECT {group}, intDiv(second, {window}) * {window} AS window_start,
       {pools},
       max(total_ports) AS peak_ports, max(second_capacity) AS capacity,
       if(peak_ports >= capacity, 'error', 'warning') AS severity,
       argMax(second, (total_ports, -second)) AS peak_second,
       argMax(largest_ports, (total_ports, -second)) AS peak_largest_pool_ports,
       count() AS seconds_near_full, min(second) AS first_second, max(second) AS last_second)",
                       fmt::arg("group", groupColumns), fmt::arg("window", options.windowSeconds),
                       fmt::arg("pools", poolsColumn));
}

PortPoolFinding findingOf(const nlohmann::json& row, PortPoolFinding::Kind kind) {
    PortPoolFinding finding;
    finding.kind = kind;
    finding.severity = row.at("severity").get<std::string>();
    finding.clientAddresses = {row.at("address").get<std::string>()};
    if (kind == PortPoolFinding::Kind::PortsAcrossServers) {
        finding.hosts = {row.at("host").get<std::string>()};
        finding.servers = row.at("servers").get<std::vector<std::string>>();
    } else {
        finding.hosts = row.at("hosts").get<std::vector<std::string>>();
        finding.servers = {row.at("server").get<std::string>()};
    }
    finding.peakPorts = rowInteger(row, "peak_ports");
    finding.capacity = rowInteger(row, "capacity");
    finding.peakLargestPoolPorts = rowInteger(row, "peak_largest_pool_ports");
    finding.peakTsNs = rowInteger(row, "peak_second") * kSecondNs;
    finding.secondsNearFull = static_cast<uint32_t>(rowInteger(row, "seconds_near_full"));
    finding.windowStartNs = rowInteger(row, "window_start") * kSecondNs;
    finding.firstTsNs = rowInteger(row, "first_second") * kSecondNs;
    finding.endTsNs = (rowInteger(row, "last_second") + 1) * kSecondNs;
    return finding;
}

}  // namespace

std::string_view portPoolKindName(PortPoolFinding::Kind kind) {
    switch (kind) {
        case PortPoolFinding::Kind::PortsAcrossServers: return "ports_across_servers";
        case PortPoolFinding::Kind::NatPortsTowardServer: return "nat_ports_toward_server";
    }
    return "";
}

std::string portsAcrossServersSql(const std::string& database, const FleetQueryOptions& options) {
    // Per client address, not per host: a host's records also hold the pools of remote clients
    // (when it is their server), and those are theirs. Only seconds in which no single server's
    // pool reaches the share: that one the host's own port_exhaustion finding reports.
    return fmt::format(
        R"({summary}
FROM (
    SELECT host, subject, second, sum(pool_ports) AS total_ports, max(pool_ports) AS largest_ports,
           max(pool_capacity) AS second_capacity, groupUniqArray(server) AS second_servers
    FROM (
{poolSeconds}
    GROUP BY host, subject, second
    HAVING length(second_servers) >= 2 AND total_ports * 100 >= second_capacity * {percent}
       AND largest_ports * 100 < second_capacity * {percent})
GROUP BY host, subject, window_start
ORDER BY peak_ports / capacity DESC, host, address, window_start)",
        fmt::arg("summary", summarySql("host, subject AS address",
                                       "arraySort(groupUniqArrayArray(second_servers)) AS servers", options)),
        fmt::arg("poolSeconds", poolSecondsSql(database, options, "")), fmt::arg("percent", options.nearFullPercent));
}

std::string natPortsTowardServerSql(const std::string& database, const FleetQueryOptions& options) {
    // The same loopback address on two hosts is two addresses, not one NAT's. A connection two
    // hosts saw (the same Community ID within 10 s: a NAT gives a 4-tuple to one host at a time)
    // was seen from both ends, and would count twice: that address and server are left out.
    const std::string seenTwice = fmt::format(R"(
              AND subject NOT LIKE '127.%' AND subject != '::1'
              AND (subject, server) NOT IN (
                  SELECT client_ip, concat(if(position(server_ip, ':') > 0, concat('[', server_ip, ']'), server_ip),
                                           ':', toString(server_port))
                  FROM {database}.flows
                  WHERE ts_ns >= {since}
                  GROUP BY community_id, client_ip, server_ip, server_port, intDiv(ts_ns, 10000000000)
                  HAVING uniqExact(host) >= 2))",
                                              fmt::arg("database", database), fmt::arg("since", options.sinceNs));
    const std::string capacity =
        options.natPorts > 0 ? fmt::format("toInt64({})", options.natPorts) : std::string("max(pool_capacity)");
    return fmt::format(
        R"({summary}
FROM (
    SELECT subject, server, second, sum(pool_ports) AS total_ports, max(pool_ports) AS largest_ports,
           {capacity} AS second_capacity, groupUniqArray(host) AS second_hosts
    FROM (
{poolSeconds}
    GROUP BY subject, server, second
    HAVING length(second_hosts) >= {minHosts} AND total_ports * 100 >= second_capacity * {percent})
GROUP BY subject, server, window_start
ORDER BY peak_ports / capacity DESC, address, server, window_start)",
        fmt::arg("summary", summarySql("subject AS address, server",
                                       "arraySort(groupUniqArrayArray(second_hosts)) AS hosts", options)),
        fmt::arg("capacity", capacity), fmt::arg("poolSeconds", poolSecondsSql(database, options, seenTwice)),
        fmt::arg("minHosts", options.minHosts), fmt::arg("percent", options.nearFullPercent));
}

std::vector<PortPoolFinding> queryPortPoolFindings(const ClickHouseTarget& target, PortPoolFinding::Kind kind,
                                                   const FleetQueryOptions& options) {
    const std::string sql = kind == PortPoolFinding::Kind::PortsAcrossServers
                                ? portsAcrossServersSql(target.database, options)
                                : natPortsTowardServerSql(target.database, options);
    std::vector<PortPoolFinding> findings;
    for (const nlohmann::json& row : queryRows(target, sql, options.timeoutSeconds)) {
        findings.push_back(findingOf(row, kind));
    }
    return findings;
}

}  // namespace tcpscope
