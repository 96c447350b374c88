// The fleet window's queries on a real ClickHouse: the hosts that sent records, a fleet finding's
// findings on its hosts, and a host finding's flows, against what tcpscope-cli analyze and flows
// say of the same capture.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <algorithm>
#include <string>

#include "clickhouse/clickhouse_server.hpp"
#include "sinks/sink_spec.hpp"
#include "fleet/fleet_drilldown.hpp"
#include "support/export_fixtures.hpp"

namespace {

using nlohmann::json;
using tcpscope::test::ClickHouseServer;
using tcpscope::test::cliJson;
using tcpscope::test::samplePath;
using tcpscope::test::TempDir;

constexpr double kTimeoutSeconds = 30;

tcpscope::ClickHouseTarget targetOf(const std::string& url) {
    return std::get<tcpscope::ClickHouseTarget>(tcpscope::parseSinkTarget(url));
}

// The churn sample's flows towards 127.0.0.1:9000 open at some time in [fromS, toS] (seconds),
// as tcpscope-cli flows gives them; a microsecond of slack, as records keep times to the microsecond.
size_t flowsOpenWithin(const json& flows, double fromS, double toS) {
    return static_cast<size_t>(std::count_if(flows.begin(), flows.end(), [&](const json& flow) {
        return flow["server"] == "127.0.0.1:9000" && flow["last_ts"].get<double>() >= fromS - 1e-6 &&
               flow["first_ts"].get<double>() <= toS + 1e-6;
    }));
}

}  // namespace

TEST_CASE("fleet drill-down: hosts, a fleet finding's findings per host, and a finding's flows", "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir spool("ch-spool-drill");
    const std::vector<std::string> hosts{"job-1", "job_2.dc"};
    for (const std::string& host : hosts) {
        const json exported = cliJson({"export", samplePath("churn-exhaustion.pcap"), "--host", host, "--to",
                                       server.url("drill"), "--spool", spool.path.string(), "--format", "json"});
        REQUIRE(exported["spooled"] == 0);
    }
    const json analysis = cliJson({"analyze", samplePath("churn-exhaustion.pcap"), "--format", "json"});
    const json flows = cliJson({"flows", samplePath("churn-exhaustion.pcap"), "--format", "json"})["flows"];
    const tcpscope::ClickHouseTarget target = targetOf(server.url("drill"));

    const std::vector<tcpscope::FleetHost> fleetHosts = tcpscope::queryFleetHosts(target, 0, kTimeoutSeconds);
    REQUIRE(fleetHosts.size() == 2);
    for (size_t i = 0; i < fleetHosts.size(); ++i) {
        CHECK(fleetHosts[i].host == hosts[i]);
        CHECK(fleetHosts[i].flows == flows.size());
        CHECK(fleetHosts[i].findings == analysis["findings"].size());
        CHECK(fleetHosts[i].captures == 1);
        CHECK(fleetHosts[i].lastTsNs > fleetHosts[i].firstTsNs);
    }

    // What the fleet finding "port exhaustion towards 127.0.0.1:9000 on 2 hosts" lists.
    tcpscope::HostFindingFilter filter;
    filter.hosts = hosts;
    filter.kind = "port_exhaustion";
    filter.server = "127.0.0.1:9000";
    const std::vector<tcpscope::HostFinding> findings = tcpscope::queryHostFindings(target, filter, kTimeoutSeconds);
    REQUIRE(findings.size() == 2);
    const json& exhaustion = *std::find_if(analysis["findings"].begin(), analysis["findings"].end(),
                                           [](const json& f) { return f["kind"] == "port_exhaustion"; });
    for (size_t i = 0; i < findings.size(); ++i) {
        CHECK(findings[i].host == hosts[i]);
        CHECK(findings[i].severity == "error");
        CHECK(findings[i].wallMs == Approx(exhaustion["impact"]["wall_ms"].get<double>()));
        CHECK(findings[i].summary == exhaustion["summary"]);
    }
    filter.kind = "delayed_ack_stall";
    CHECK(tcpscope::queryHostFindings(target, filter, kTimeoutSeconds).empty());
    // Names from the store are quoted: a quote or a backslash in one is a name, not SQL.
    CHECK(tcpscope::sqlString("o'brien\\") == "'o\\'brien\\\\'");
    filter.kind = "x' OR '1' = '1";
    CHECK(tcpscope::queryHostFindings(target, filter, kTimeoutSeconds).empty());
    // Every finding of one host, from the hosts list.
    CHECK(tcpscope::queryHostFindings(target, {{hosts[1]}, 0, {}, {}, 0, 0}, kTimeoutSeconds).size() ==
          analysis["findings"].size());

    // The flows of the second host while its ports were exhausted: the last ones to close before
    // the pause and the first one after it (it ended the pause).
    const tcpscope::HostFinding& pause = findings[1];
    const std::vector<tcpscope::HostFlow> pauseFlows =
        tcpscope::queryHostFlows(target, tcpscope::flowsOfFinding(pause), kTimeoutSeconds);
    const double fromS = exhaustion["ts"].get<double>();
    const double toS = fromS + exhaustion["impact"]["wall_ms"].get<double>() / 1000;
    CHECK(pauseFlows.size() == flowsOpenWithin(flows, fromS, toS));
    REQUIRE_FALSE(pauseFlows.empty());
    CHECK(std::all_of(pauseFlows.begin(), pauseFlows.end(), [&](const tcpscope::HostFlow& flow) {
        return flow.server == "127.0.0.1:9000" && flow.captureId == pause.captureId;
    }));
    CHECK(pauseFlows.back().flowId == 100);  // the port_reuse finding's flow: the first after the pause
    // One flow by its id.
    tcpscope::HostFlowFilter one{hosts[0], findings[0].captureId, {}, 0, 0, 7};
    const std::vector<tcpscope::HostFlow> seventh = tcpscope::queryHostFlows(target, one, kTimeoutSeconds);
    REQUIRE(seventh.size() == 1);
    CHECK(seventh[0].client == flows[7]["client"]);
    CHECK(seventh[0].packets == flows[7]["packets"]["client_to_server"].get<uint64_t>() +
                                    flows[7]["packets"]["server_to_client"].get<uint64_t>());
    CHECK(seventh[0].handshakeRttMs.has_value());

    // A later revision that withdrew job-1's port exhaustion (as a live capture sends one): the
    // finding counts no more and is listed no more; job_2.dc's stays.
    (void)server.query(
        "INSERT INTO drill.findings (record, schema, host, capture_id, ts_ns, finding_id, kind, severity, server, "
        "revision, final, withdrawn) SELECT record, schema, host, capture_id, ts_ns, finding_id, kind, severity, "
        "server, 1, 1, 1 FROM drill.findings WHERE host = 'job-1' AND kind = 'port_exhaustion'");
    const std::vector<tcpscope::FleetHost> afterWithdrawal = tcpscope::queryFleetHosts(target, 0, kTimeoutSeconds);
    REQUIRE(afterWithdrawal.size() == 2);
    CHECK(afterWithdrawal[0].findings == analysis["findings"].size() - 1);
    CHECK(afterWithdrawal[1].findings == analysis["findings"].size());
    filter.kind = "port_exhaustion";
    const std::vector<tcpscope::HostFinding> left = tcpscope::queryHostFindings(target, filter, kTimeoutSeconds);
    REQUIRE(left.size() == 1);
    CHECK(left[0].host == hosts[1]);
}

TEST_CASE("fleet drill-down: a server that is not there is one line", "[clickhouse]") {
    const tcpscope::ClickHouseTarget nowhere = targetOf("clickhouse://127.0.0.1:1/nothing");
    try {
        (void)tcpscope::queryFleetHosts(nowhere, 0, 2);
        FAIL("no error");
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        CHECK(message.find("127.0.0.1:1") != std::string::npos);
        CHECK(message.find('\n') == std::string::npos);
    }
}
