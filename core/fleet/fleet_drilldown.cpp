#include "fleet/fleet_drilldown.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "fleet/clickhouse_rows.hpp"

namespace tcpscope {
namespace {

// A flow record's server as a finding record writes it: "192.0.2.1:80", "[2001:db8::1]:80".
constexpr const char* kServerEndpointSql =
    "concat(if(position(server_ip, ':') > 0, concat('[', server_ip, ']'), server_ip), ':', toString(server_port))";
constexpr const char* kClientEndpointSql =
    "concat(if(position(client_ip, ':') > 0, concat('[', client_ip, ']'), client_ip), ':', toString(client_port))";

std::string hostList(const std::vector<std::string>& hosts) {
    std::string list;
    for (const std::string& host : hosts) {
        list += (list.empty() ? "" : ", ") + sqlString(host);
    }
    return list;
}

std::string text(const nlohmann::json& row, const char* key) { return row.at(key).get<std::string>(); }

}  // namespace

std::string sqlString(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\\' || c == '\'') {
            quoted += '\\';
        }
        quoted += c;
    }
    return quoted + "'";
}

std::string fleetHostsSql(const std::string& database, int64_t sinceNs) {
    // Two tables of one host: its flows and its findings, each counted once however often its
    // capture was exported (one per capture_id and id), a live capture's finding by its latest
    // revision and not at all if that one was withdrawn (docs/records.md). The aggregates are named
    // apart from the columns: ClickHouse 18.16 would take the alias for the column in WHERE.
    return fmt::format(
        "SELECT host, sum(flows) AS flows, sum(findings) AS findings, max(captures) AS captures, "
        "min(first_ts_ns) AS first_ts_ns, max(last_ts_ns) AS last_ts_ns FROM ("
        "SELECT host, uniqExact(capture_id, flow_id) AS flows, toUInt64(0) AS findings, "
        "uniqExact(capture_id) AS captures, min(ts_ns) AS first_ts_ns, max(end_ts_ns) AS last_ts_ns "
        "FROM {database}.flows WHERE ts_ns >= {since} GROUP BY host "
        "UNION ALL "
        "SELECT host, toUInt64(0) AS flows, count() AS findings, uniqExact(capture_id) AS captures, "
        "min(finding_ts_ns) AS first_ts_ns, max(finding_ts_ns) AS last_ts_ns FROM ("
        "SELECT host, capture_id, min(ts_ns) AS finding_ts_ns, argMax(withdrawn, revision) AS latest_withdrawn "
        "FROM {database}.findings WHERE ts_ns >= {since} GROUP BY host, capture_id, finding_id) "
        "WHERE latest_withdrawn = 0 GROUP BY host) "
        "GROUP BY host ORDER BY host",
        fmt::arg("database", database), fmt::arg("since", sinceNs));
}

std::string hostFindingsSql(const std::string& database, const HostFindingFilter& filter) {
    std::string where = fmt::format("ts_ns >= {}", filter.sinceNs);
    if (!filter.hosts.empty()) {
        where += fmt::format(" AND host IN ({})", hostList(filter.hosts));
    }
    if (!filter.kind.empty()) {
        where += " AND kind = " + sqlString(filter.kind);
    }
    if (!filter.server.empty()) {
        where += " AND server = " + sqlString(filter.server);
    }
    if (filter.fromNs != 0) {
        where += fmt::format(" AND ts_ns >= {}", filter.fromNs);
    }
    if (filter.toNs != 0) {
        where += fmt::format(" AND ts_ns < {}", filter.toNs);
    }
    // A finding's latest revision (a live capture sends it again as it grows), none if withdrawn.
    // Its kind, server and start are the same in every revision, so they filter the rows first.
    return fmt::format(
        "SELECT host, capture_id, finding_id, kind, severity, ts_ns, flow_id, wall_ms, duration_ms, client, "
        "server, summary FROM ("
        "SELECT host, capture_id, finding_id, kind, severity, ts_ns, flow_id, wall_ms, duration_ms, client, "
        "server, summary, withdrawn FROM {database}.findings WHERE {where} "
        "ORDER BY host, capture_id, finding_id, revision DESC LIMIT 1 BY host, capture_id, finding_id) "
        "WHERE withdrawn = 0 ORDER BY host, ts_ns, capture_id, finding_id LIMIT {limit}",
        fmt::arg("database", database), fmt::arg("where", where), fmt::arg("limit", kDrilldownRowLimit));
}

std::string hostFlowsSql(const std::string& database, const HostFlowFilter& filter) {
    std::string where = "host = " + sqlString(filter.host);
    if (!filter.captureId.empty()) {
        where += " AND capture_id = " + sqlString(filter.captureId);
    }
    if (filter.flowId) {
        where += fmt::format(" AND flow_id = {}", *filter.flowId);
    } else {
        if (!filter.server.empty()) {
            // An endpoint ("ip:port") or a host a finding names without a port.
            where += fmt::format(" AND ({endpoint} = {s} OR server_ip = {s} OR client_ip = {s})",
                                 fmt::arg("endpoint", kServerEndpointSql), fmt::arg("s", sqlString(filter.server)));
        }
        if (filter.toNs != 0) {
            where += fmt::format(" AND ts_ns <= {}", filter.toNs);
        }
        where += fmt::format(" AND end_ts_ns >= {}", filter.fromNs);
    }
    return fmt::format(
        "SELECT capture_id, flow_id, {client} AS client, {server} AS server, ts_ns, end_ts_ns, state, "
        "packets_c2s + packets_s2c AS packets, bytes_c2s + bytes_s2c AS bytes, handshake_rtt_ms, time_lost_ms "
        "FROM {database}.flows WHERE {where} "
        "ORDER BY ts_ns, capture_id, flow_id LIMIT 1 BY capture_id, flow_id LIMIT {limit}",
        fmt::arg("client", kClientEndpointSql), fmt::arg("server", kServerEndpointSql), fmt::arg("database", database),
        fmt::arg("where", where), fmt::arg("limit", kDrilldownRowLimit));
}

HostFlowFilter flowsOfFinding(const HostFinding& finding) {
    HostFlowFilter filter;
    filter.host = finding.host;
    filter.captureId = finding.captureId;
    filter.server = finding.server;
    filter.fromNs = finding.tsNs;
    // Records keep times to the microsecond: a flow that began as the finding ended (the first
    // connection after a pause) is in, however the milliseconds were rounded.
    constexpr int64_t kRoundingNs = 1000;
    filter.toNs = finding.tsNs + std::llround(std::max(finding.wallMs, 1000.0) * 1e6) + kRoundingNs;
    if (finding.server.empty() && finding.flowId >= 0) {
        filter.flowId = static_cast<uint32_t>(finding.flowId);
    }
    return filter;
}

std::vector<FleetHost> queryFleetHosts(const ClickHouseTarget& target, int64_t sinceNs, double timeoutSeconds) {
    std::vector<FleetHost> hosts;
    for (const nlohmann::json& row : queryRows(target, fleetHostsSql(target.database, sinceNs), timeoutSeconds)) {
        FleetHost& host = hosts.emplace_back();
        host.host = text(row, "host");
        host.flows = static_cast<uint64_t>(rowInteger(row, "flows"));
        host.findings = static_cast<uint64_t>(rowInteger(row, "findings"));
        host.captures = static_cast<uint64_t>(rowInteger(row, "captures"));
        host.firstTsNs = rowInteger(row, "first_ts_ns");
        host.lastTsNs = rowInteger(row, "last_ts_ns");
    }
    return hosts;
}

std::vector<HostFinding> queryHostFindings(const ClickHouseTarget& target, const HostFindingFilter& filter,
                                           double timeoutSeconds) {
    std::vector<HostFinding> findings;
    for (const nlohmann::json& row : queryRows(target, hostFindingsSql(target.database, filter), timeoutSeconds)) {
        HostFinding& finding = findings.emplace_back();
        finding.host = text(row, "host");
        finding.captureId = text(row, "capture_id");
        finding.findingId = static_cast<uint32_t>(rowInteger(row, "finding_id"));
        finding.kind = text(row, "kind");
        finding.severity = text(row, "severity");
        finding.tsNs = rowInteger(row, "ts_ns");
        finding.flowId = rowInteger(row, "flow_id");
        finding.wallMs = row.at("wall_ms").get<double>();
        finding.durationMs = row.at("duration_ms").get<double>();
        finding.client = text(row, "client");
        finding.server = text(row, "server");
        finding.summary = text(row, "summary");
    }
    return findings;
}

std::vector<HostFlow> queryHostFlows(const ClickHouseTarget& target, const HostFlowFilter& filter,
                                     double timeoutSeconds) {
    std::vector<HostFlow> flows;
    for (const nlohmann::json& row : queryRows(target, hostFlowsSql(target.database, filter), timeoutSeconds)) {
        HostFlow& flow = flows.emplace_back();
        flow.captureId = text(row, "capture_id");
        flow.flowId = static_cast<uint32_t>(rowInteger(row, "flow_id"));
        flow.client = text(row, "client");
        flow.server = text(row, "server");
        flow.tsNs = rowInteger(row, "ts_ns");
        flow.endTsNs = rowInteger(row, "end_ts_ns");
        flow.state = text(row, "state");
        flow.packets = static_cast<uint64_t>(rowInteger(row, "packets"));
        flow.bytes = static_cast<uint64_t>(rowInteger(row, "bytes"));
        if (const auto& rtt = row.at("handshake_rtt_ms"); !rtt.is_null()) {
            flow.handshakeRttMs = rtt.get<double>();
        }
        flow.timeLostMs = row.at("time_lost_ms").get<double>();
    }
    return flows;
}

}  // namespace tcpscope
