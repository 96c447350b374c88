// tcpscope-cli fleet on a real ClickHouse: the churn sample exported as several client hosts gives
// the fleet finding (port exhaustion towards one server on every host at once); the same sample
// from one host alone does not.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "clickhouse/clickhouse_server.hpp"
#include "support/export_fixtures.hpp"

namespace {

using nlohmann::json;
using tcpscope::test::ClickHouseServer;
using tcpscope::test::cliJson;
using tcpscope::test::samplePath;
using tcpscope::test::TempDir;

void exportAs(const std::string& host, const std::string& to, const TempDir& spool) {
    const json exported = cliJson({"export", samplePath("churn-exhaustion.pcap"), "--host", host, "--to", to, "--spool",
                                   spool.path.string(), "--format", "json"});
    REQUIRE(exported["spooled"] == 0);
}

// The fleet finding of `kind` towards `server`, or null.
json fleetFinding(const json& fleet, const std::string& kind, const std::string& server) {
    for (const json& finding : fleet["fleet_findings"]) {
        if (finding["kind"] == kind && finding["server"] == server) {
            return finding;
        }
    }
    return nullptr;
}

}  // namespace

TEST_CASE("fleet: port exhaustion towards one server on several hosts at once, and not from one host", "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir spool("ch-spool-fleet");

    exportAs("job-1", server.url("fleet_one"), spool);
    const json alone = cliJson({"fleet", "--from", server.url("fleet_one"), "--format", "json"});
    CHECK(alone["fleet_findings"].empty());

    for (const char* host : {"job-1", "job-2", "job-3"}) {
        exportAs(host, server.url("fleet_many"), spool);
    }
    const json fleet = cliJson({"fleet", "--from", server.url("fleet_many"), "--format", "json"});
    const json exhaustion = fleetFinding(fleet, "port_exhaustion", "127.0.0.1:9000");
    REQUIRE_FALSE(exhaustion.is_null());
    CHECK(exhaustion["hosts"] == json::array({"job-1", "job-2", "job-3"}));
    CHECK(exhaustion["findings"] == 3);
    CHECK(exhaustion["severity"] == "error");
    // Four hosts are needed with --min-hosts 4; the sample was recorded long before the last hour.
    CHECK(fleetFinding(cliJson({"fleet", "--from", server.url("fleet_many"), "--min-hosts", "4", "--format", "json"}),
                       "port_exhaustion", "127.0.0.1:9000")
              .is_null());
    CHECK(cliJson({"fleet", "--from", server.url("fleet_many"), "--since", "1h", "--format", "json"})["fleet_findings"]
              .empty());

    const auto text = tcpscope::test::runCommand({TCPSCOPE_CLI, "fleet", "--from", server.url("fleet_many")});
    CHECK(text.ok());
    CHECK(text.out.find("port_exhaustion") != std::string::npos);
    CHECK(text.out.find("3 hosts (job-1, job-2, job-3)") != std::string::npos);
}

TEST_CASE("fleet: a bad --from or --since is a one-line error", "[clickhouse]") {
    for (const auto& [from, since] :
         {std::pair{"dir:/tmp/x", ""}, std::pair{"clickhouse://127.0.0.1:8123/db", "yesterday"}}) {
        std::vector<std::string> argv{TCPSCOPE_CLI, "fleet", "--from", from};
        if (*since != '\0') {
            argv.insert(argv.end(), {"--since", since});
        }
        const auto result = tcpscope::test::runCommand(argv);
        CHECK(result.exitCode == 2);
        CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
    }
}

TEST_CASE("fleet: a findings table made before revisions gets their columns, and each finding counts once",
          "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir spool("ch-spool-old");
    // The findings table as tcpscope made it before a finding had revisions (docs/records.md history).
    (void)server.query("CREATE DATABASE IF NOT EXISTS fleet_old");
    (void)server.query(
        "CREATE TABLE fleet_old.findings (record String, schema String, host String, capture_id String, "
        "tcpscope_version String, ts_ns Int64, community_id String, batch_id String, "
        "time DateTime('UTC') MATERIALIZED toDateTime(intDiv(ts_ns, 1000000000), 'UTC'), "
        "finding_id UInt32, kind String, severity String, flow_id Int64, duration_ms Float64, "
        "wall_ms Float64, connections UInt32, delayed_requests UInt64, p50_ms Float64, p99_ms Float64, max_ms Float64, "
        "connection_ms Float64, client String, server String, summary String, frames Array(UInt32), evidence String) "
        "ENGINE = MergeTree PARTITION BY toYYYYMMDD(time) ORDER BY (host, time)");
    // job-1 exported twice (the same capture id): its findings count once.
    for (const char* host : {"job-1", "job-1", "job-2"}) {
        exportAs(host, server.url("fleet_old"), spool);
    }
    CHECK(server.number("SELECT count() FROM system.columns WHERE database = 'fleet_old' AND table = 'findings' "
                        "AND name IN ('revision', 'final', 'ongoing', 'provisional', 'withdrawn')") == 5);
    const json exhaustion =
        fleetFinding(cliJson({"fleet", "--from", server.url("fleet_old"), "--format", "json"}), "port_exhaustion",
                     "127.0.0.1:9000");
    REQUIRE_FALSE(exhaustion.is_null());
    CHECK(exhaustion["hosts"] == json::array({"job-1", "job-2"}));
    CHECK(exhaustion["findings"] == 2);
}
