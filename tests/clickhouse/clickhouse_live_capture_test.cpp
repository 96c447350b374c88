// tcpscope-cli capture --to clickhouse://...: a live capture on loopback sends its records into a
// real server while it runs; the server is killed in the middle and started again, and after the
// capture every record is there exactly once, the growing finding at the count the analysis of the
// written file gives. Needs CAP_NET_RAW (CI runs as root): skipped otherwise.
#include <signal.h>

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "clickhouse/clickhouse_server.hpp"
#include "core/live/child_process.hpp"
#include "core/live/live_test_support.hpp"
#include "support/live_records_check.hpp"

namespace tcpscope {
TEST_CASE("capture --to clickhouse: records while the capture runs - a server killed and restarted loses and "
          "doubles nothing",
          "[clickhouse][live]") {
    if (!test::mayCapture()) {
        return;
    }
    test::ClickHouseServer& server = test::ClickHouseServer::shared();
    const uint16_t port = test::livePort(950);
    const test::TempDir dir("ch-live");
    std::filesystem::create_directories(dir.path);
    const std::string capture = (dir.path / "live.pcapng").string();
    test::ChildProcess capturing({TCPSCOPE_CLI, "capture", "-i", "lo", "--filter", "tcp port " + std::to_string(port),
                                  "--write", capture, "--to", server.url("live"), "--host", "live-ch", "--spool",
                                  (dir.path / "spool").string(), "--flush-s", "0.5", "--timeout-s", "2", "--format",
                                  "json"});
    REQUIRE(capturing.waitForOutput("Ctrl-C to stop", 10, true));
    // Two clients asking back to back, each answer held up by a delayed ACK (about 45 ms): one on a
    // single connection whose finding grows for about 11 s, one that reconnects every 5 requests.
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "500", "--clients", "2",
                                "--long-clients", "1", "--reconnect-every", "5"});

    // While the traffic runs: the first revisions land, then the server dies for a few seconds.
    std::this_thread::sleep_for(std::chrono::seconds(3));
    CHECK(server.number("SELECT count() FROM live.findings WHERE host = 'live-ch'") > 0);
    const uint64_t revisionBeforeOutage =
        server.number("SELECT max(revision) FROM live.findings WHERE host = 'live-ch'");
    server.stop();
    std::this_thread::sleep_for(std::chrono::seconds(3));
    server.start();
    REQUIRE(traffic.wait(60).exitCode == 0);
    capturing.sendSignal(SIGINT);
    const test::CommandResult result = capturing.wait(120);
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    const nlohmann::json report = nlohmann::json::parse(test::lastLine(result.out));
    const nlohmann::json& live = report["capture"]["live"];
    CHECK(live["not_analysed"] == 0);  // the outage held up neither the capture nor the analysis
    const nlohmann::json& sent = live["records"];
    CHECK(sent["spooled"] == 0);
    CHECK(sent["dropped"] == 0);
    CHECK(sent["failed_attempts"].get<uint64_t>() > 0);  // the outage was noticed
    const uint64_t made = sent["records"]["flow"].get<uint64_t>() + sent["records"]["finding"].get<uint64_t>() +
                          sent["records"]["series"].get<uint64_t>();
    CHECK(sent["sent"].get<uint64_t>() == made);

    // Every record once: as many rows as records made, table by table.
    const std::string host = "host = 'live-ch'";
    CHECK(server.number("SELECT count() FROM live.flows WHERE " + host) == sent["records"]["flow"]);
    CHECK(server.number("SELECT count() FROM live.findings WHERE " + host) == sent["records"]["finding"]);
    CHECK(server.number("SELECT count() FROM live.series WHERE " + host) == sent["records"]["series"]);
    // Each flow exactly once, as many as the written file has.
    const uint64_t flows = server.number("SELECT count() FROM live.flows WHERE " + host);
    CHECK(server.number("SELECT uniqExact(flow_id) FROM live.flows WHERE " + host) == flows);
    CHECK(flows == test::analysedFlowCount(capture));
    // Each finding's revisions once each, 0 to the last, the last one final.
    CHECK(server.number("SELECT count() FROM (SELECT finding_id, revision FROM live.findings WHERE " + host +
                        " GROUP BY finding_id, revision HAVING count() > 1)") == 0);
    CHECK(server.number("SELECT count() FROM (SELECT finding_id FROM live.findings WHERE " + host +
                        " GROUP BY finding_id HAVING max(revision) + 1 != count() OR argMax(final, revision) != 1)") ==
          0);
    // The stall finding grew across the outage, and its latest revision has the file's count.
    CHECK(server.number("SELECT max(revision) FROM live.findings WHERE " + host) > revisionBeforeOutage);
    std::map<int64_t, uint64_t> latest;
    std::istringstream rows(server.query(
        "SELECT flow_id, argMax(delayed_requests, revision) FROM live.findings WHERE " + host +
        " AND kind = 'delayed_ack_stall' GROUP BY finding_id, flow_id HAVING argMax(withdrawn, revision) = 0"));
    for (int64_t flow = 0; rows >> flow;) {
        uint64_t requests = 0;
        rows >> requests;
        latest[flow] = requests;
    }
    const std::map<int64_t, uint64_t> analysed = test::analysedDelayedRequests(capture);
    CHECK(latest == analysed);
    REQUIRE(!analysed.empty());
    uint64_t mostStalls = 0;
    for (const auto& [flow, requests] : analysed) {
        mostStalls = std::max(mostStalls, requests);
    }
    CHECK(mostStalls >= 150);
}

}  // namespace tcpscope
