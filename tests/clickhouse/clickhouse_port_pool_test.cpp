// tcpscope-cli fleet's port pool queries on a real ClickHouse, on the churn sample (100 ports held
// open or in TIME_WAIT towards one server for a minute) moved to other servers, addresses and
// times: one host towards two servers fills its port range where neither server does alone; three
// hosts behind one client address fill what that address has towards one server, one host alone
// does not; the same loopback address on three hosts is no NAT.
#include <array>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "clickhouse/clickhouse_server.hpp"
#include "clickhouse/rewritten_capture.hpp"
#include "fleet/fleet_findings.hpp"
#include "fleet/port_pool_findings.hpp"
#include "support/export_fixtures.hpp"

namespace {

using nlohmann::json;
using tcpscope::test::CaptureRewrite;
using tcpscope::test::ClickHouseServer;
using tcpscope::test::cliJson;
using tcpscope::test::samplePath;
using tcpscope::test::TempDir;

constexpr int64_t kSecondNs = 1'000'000'000;
constexpr std::array<uint8_t, 4> kLoopback{127, 0, 0, 1};
constexpr std::array<uint8_t, 4> kNatAddress{198, 51, 100, 7};  // documentation addresses (RFC 5737)
constexpr std::array<uint8_t, 4> kRemoteServer{203, 0, 113, 10};

void exportAs(const std::string& host, const std::vector<std::string>& files, const std::string& portRange,
              const std::string& to, const TempDir& spool) {
    std::vector<std::string> arguments{"export"};
    arguments.insert(arguments.end(), files.begin(), files.end());
    arguments.insert(arguments.end(), {"--host", host, "--port-range", portRange, "--to", to, "--spool",
                                       spool.path.string(), "--format", "json"});
    REQUIRE(cliJson(arguments)["spooled"] == 0);
}

std::vector<json> ofKind(const json& fleet, const std::string& kind) {
    std::vector<json> found;
    for (const json& finding : fleet["fleet_findings"]) {
        if (finding["kind"] == kind) {
            found.push_back(finding);
        }
    }
    return found;
}

json fleetOf(const std::string& url, std::vector<std::string> options = {}) {
    std::vector<std::string> arguments{"fleet", "--from", url, "--format", "json"};
    arguments.insert(arguments.end(), options.begin(), options.end());
    return cliJson(arguments);
}

}  // namespace

TEST_CASE("fleet: one host's ports towards two servers fill its port range, neither server alone does",
          "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir files("ch-port-pools");
    TempDir spool("ch-spool-port-pools");
    std::filesystem::create_directories(files.path);
    const std::string sample = samplePath("churn-exhaustion.pcap");
    // The same client towards a second server port, starting 20 s later: 41 s of the two overlap.
    const std::string secondServer = (files.path / "churn-9001-20s.pcap").string();
    tcpscope::test::writeRewrittenCapture(sample, secondServer,
                                          CaptureRewrite{kLoopback, kLoopback, 9000, 9001, 0, 20 * kSecondNs});

    // A 200-port range: 100 ports towards one server is half of it.
    exportAs("job-1", {sample}, "40000-40199", server.url("pools_one_server"), spool);
    CHECK(ofKind(fleetOf(server.url("pools_one_server")), "ports_across_servers").empty());

    // Two captures of one host, one per service, exported one after the other.
    exportAs("job-1", {sample}, "40000-40199", server.url("pools_two_servers"), spool);
    exportAs("job-1", {secondServer}, "40000-40199", server.url("pools_two_servers"), spool);
    const std::vector<json> found =
        ofKind(fleetOf(server.url("pools_two_servers"), {"--window-s", "86400"}), "ports_across_servers");
    REQUIRE(found.size() == 1);
    const json& finding = found.front();
    CHECK(finding["hosts"] == json::array({"job-1"}));
    CHECK(finding["client_addresses"] == json::array({"127.0.0.1"}));
    CHECK(finding["servers"] == json::array({"127.0.0.1:9000", "127.0.0.1:9001"}));
    CHECK(finding["peak_ports"] == 200);
    CHECK(finding["capacity"] == 200);
    CHECK(finding["peak_largest_pool_ports"] == 100);
    CHECK(finding["severity"] == "error");
    CHECK(finding["seconds_near_full"] == 41);
    CHECK(finding["end_ts_ns"].get<int64_t>() - finding["first_ts_ns"].get<int64_t>() == 41 * kSecondNs);
    CHECK(finding["peak_ts_ns"] == finding["first_ts_ns"]);
    // With the sample's own 100-port range each server alone fills it: the host's own
    // port_exhaustion says so, and the fleet adds nothing.
    exportAs("job-1", {sample}, "40000-40099", server.url("pools_each_full"), spool);
    exportAs("job-1", {secondServer}, "40000-40099", server.url("pools_each_full"), spool);
    CHECK(ofKind(fleetOf(server.url("pools_each_full")), "ports_across_servers").empty());

    const auto text = tcpscope::test::runCommand(
        {TCPSCOPE_CLI, "fleet", "--from", server.url("pools_two_servers"), "--window-s", "86400"});
    CHECK(text.ok());
    CHECK(text.out.find("ports_across_servers") != std::string::npos);
    CHECK(text.out.find("job-1 (127.0.0.1): 200 ports open or in TIME_WAIT towards 2 servers together") !=
          std::string::npos);
}

TEST_CASE("fleet: hosts behind one client address fill its ports towards one server, one host alone does not",
          "[clickhouse]") {
    ClickHouseServer& server = ClickHouseServer::shared();
    TempDir files("ch-nat");
    TempDir spool("ch-spool-nat");
    std::filesystem::create_directories(files.path);
    const std::string sample = samplePath("churn-exhaustion.pcap");
    // Three hosts whose captures see the NAT's address, each with ports of its own (40000-40099,
    // 40100-40199, 40200-40299), starting 0, 10 and 20 s apart: 300 ports at once for 41 s.
    std::vector<std::string> hostCaptures;
    for (int host = 0; host < 3; ++host) {
        hostCaptures.push_back((files.path / ("nat-host-" + std::to_string(host) + ".pcap")).string());
        tcpscope::test::writeRewrittenCapture(sample, hostCaptures.back(),
                                              CaptureRewrite{kNatAddress, kRemoteServer, 9000, 9000,
                                                             static_cast<uint16_t>(host * 100), host * 10 * kSecondNs});
    }
    const std::string range = "40000-40299";  // 300 ports, the NAT's too

    exportAs("nat-1", {hostCaptures[0]}, range, server.url("nat_one_host"), spool);
    CHECK(ofKind(fleetOf(server.url("nat_one_host")), "nat_ports_toward_server").empty());

    for (int host = 0; host < 3; ++host) {
        exportAs("nat-" + std::to_string(host + 1), {hostCaptures[host]}, range, server.url("nat_three_hosts"), spool);
    }
    const json fleet = fleetOf(server.url("nat_three_hosts"), {"--window-s", "86400"});
    const std::vector<json> found = ofKind(fleet, "nat_ports_toward_server");
    REQUIRE(found.size() == 1);
    const json& finding = found.front();
    CHECK(finding["hosts"] == json::array({"nat-1", "nat-2", "nat-3"}));
    CHECK(finding["client_addresses"] == json::array({"198.51.100.7"}));
    CHECK(finding["servers"] == json::array({"203.0.113.10:9000"}));
    CHECK(finding["peak_ports"] == 300);
    CHECK(finding["capacity"] == 300);
    CHECK(finding["peak_largest_pool_ports"] == 100);
    CHECK(finding["severity"] == "error");
    // 240 ports or more (80 % of 300): the 41 s all three overlap, and the second the first host's
    // ports were half free again (250).
    CHECK(finding["seconds_near_full"] == 42);
    CHECK(finding["peak_ts_ns"] == finding["first_ts_ns"]);
    // Not a fleet finding of the ports_across_servers kind: each host has one server.
    CHECK(ofKind(fleet, "ports_across_servers").empty());

    // Judged against a Linux NAT's whole range (1024-65535), 300 ports are nothing.
    CHECK(ofKind(fleetOf(server.url("nat_three_hosts"), {"--nat-ports", "64512"}), "nat_ports_toward_server").empty());
    CHECK(ofKind(fleetOf(server.url("nat_three_hosts"), {"--min-hosts", "4"}), "nat_ports_toward_server").empty());

    const auto text = tcpscope::test::runCommand(
        {TCPSCOPE_CLI, "fleet", "--from", server.url("nat_three_hosts"), "--window-s", "86400"});
    CHECK(text.ok());
    CHECK(text.out.find("nat_ports_toward_server 198.51.100.7 -> 203.0.113.10:9000: 3 hosts (nat-1, nat-2, nat-3)") !=
          std::string::npos);

    // The same loopback address on three hosts is three hosts' own, not a NAT's.
    for (const char* host : {"job-1", "job-2", "job-3"}) {
        exportAs(host, {sample}, range, server.url("nat_loopback"), spool);
    }
    const json loopback = fleetOf(server.url("nat_loopback"), {"--window-s", "86400"});
    CHECK(ofKind(loopback, "nat_ports_toward_server").empty());
    CHECK(ofKind(loopback, "port_exhaustion").size() == 1);

    // One host's connections seen from both ends (the client and the server export the same
    // connections): 100 ports, not 200, so not 100 % of 200.
    for (const char* host : {"client-a", "server-s"}) {
        exportAs(host, {hostCaptures[0]}, range, server.url("nat_both_ends"), spool);
    }
    CHECK(ofKind(fleetOf(server.url("nat_both_ends"), {"--nat-ports", "200"}), "nat_ports_toward_server").empty());
}

TEST_CASE("fleet: docs/records.md holds the fleet queries as they are sent", "[clickhouse]") {
    std::ifstream file(std::string(TCPSCOPE_SOURCE_DIR) + "/docs/records.md");
    std::stringstream docs;
    docs << file.rdbuf();
    const tcpscope::FleetQueryOptions defaults;
    CHECK(docs.str().find(tcpscope::portsAcrossServersSql("DB", defaults)) != std::string::npos);
    CHECK(docs.str().find(tcpscope::natPortsTowardServerSql("DB", defaults)) != std::string::npos);
    CHECK(docs.str().find(tcpscope::sameFindingOnManyHostsSql("DB", defaults)) != std::string::npos);
}
