// tcpscope-cli capture --to dir:PATH: the records of a live capture as it runs, against the
// analysis of the file it wrote. Needs CAP_NET_RAW (CI runs as root); skipped otherwise.
#include <signal.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/live/child_process.hpp"
#include "core/live/live_test_support.hpp"
#include "support/live_records_check.hpp"
#include "support/zstd_file.hpp"

namespace tcpscope {

TEST_CASE("tcpscope-cli capture --to dir: a growing finding's revisions, each flow once", "[live][cli][records]") {
    if (!test::mayCapture()) {
        return;
    }
    const uint16_t port = test::livePort(900);
    const test::TempDir dir("live-records");
    std::filesystem::create_directories(dir.path);
    const std::string capture = (dir.path / "live.pcapng").string();
    const std::string out = (dir.path / "records").string();
    test::ChildProcess capturing({TCPSCOPE_CLI, "capture", "-i", "lo", "--filter", "tcp port " + std::to_string(port),
                                  "--write", capture, "--to", "dir:" + out, "--host", "live-dir", "--format", "json"});
    REQUIRE(capturing.waitForOutput("Ctrl-C to stop", 10, true));
    // Two clients asking back to back, each answer held up by a delayed ACK (about 45 ms): one on a
    // single connection whose finding grows for 4 s, one that reconnects every 5 requests.
    test::ChildProcess traffic({"python3", test::kWriteWriteRead, std::to_string(port), "200", "--clients", "2",
                                "--long-clients", "1", "--reconnect-every", "5"});
    REQUIRE(traffic.wait(30).exitCode == 0);
    capturing.sendSignal(SIGINT);
    const test::CommandResult result = capturing.wait(60);
    INFO(result.err);
    REQUIRE(result.exitCode == 0);
    const nlohmann::json report = nlohmann::json::parse(test::lines(result.out).back());
    const nlohmann::json& sent = report["capture"]["live"]["records"];
    CHECK(sent["dropped"] == 0);
    CHECK(sent["spooled"] == 0);

    std::vector<nlohmann::json> records;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(out)) {
        if (entry.is_regular_file()) {
            for (const std::string& line : test::lines(test::readZstdFile(entry.path()))) {
                records.push_back(nlohmann::json::parse(line));
            }
        }
    }
    CHECK(records.size() == sent["sent"].get<size_t>());

    // Every flow exactly once, as many as the written file has.
    std::multiset<int64_t> flowIds;
    std::map<int64_t, std::vector<nlohmann::json>> revisions;  // finding id -> its records, in order
    for (const nlohmann::json& record : records) {
        CHECK(record["host"] == "live-dir");
        if (record["record"] == "flow") {
            flowIds.insert(record["flow_id"].get<int64_t>());
        } else if (record["record"] == "finding") {
            revisions[record["finding_id"].get<int64_t>()].push_back(record);
        }
    }
    CHECK(flowIds.size() == test::analysedFlowCount(capture));
    CHECK(std::set<int64_t>(flowIds.begin(), flowIds.end()).size() == flowIds.size());
    CHECK(flowIds.size() > 3);  // the reconnecting client's flows

    // The long connection's stall finding was sent as it grew: revisions 0, 1, 2, ... in order, the last final,
    // with the count the analysis of the file gives.
    const std::map<int64_t, uint64_t> analysed = test::analysedDelayedRequests(capture);
    std::map<int64_t, uint64_t> latest;
    size_t mostRevisions = 0;
    for (const auto& [id, list] : revisions) {
        for (size_t index = 0; index < list.size(); ++index) {
            CHECK(list[index]["revision"] == index);
            CHECK(list[index]["final"] == (index + 1 == list.size() ? 1 : 0));
            // The evidence comes with the final revision only (docs/records.md, "Revisions").
            if (index + 1 < list.size()) {
                CHECK(list[index]["evidence"] == "{}");
            } else if (list[index]["kind"] == "delayed_ack_stall" && list[index]["withdrawn"] == 0) {
                CHECK(list[index]["evidence"] != "{}");
            }
            CHECK(!list[index]["summary"].get<std::string>().empty());
        }
        const nlohmann::json& last = list.back();
        if (last["kind"] == "delayed_ack_stall" && last["withdrawn"] == 0) {
            latest[last["flow_id"].get<int64_t>()] = last["delayed_requests"].get<uint64_t>();
            mostRevisions = std::max(mostRevisions, list.size());
        }
    }
    CHECK(latest == analysed);
    CHECK(mostRevisions >= 3);  // made, grown at least once, final

    // The finding lines on stdout tell the same as they go: each stall finding's lines count ever
    // more waits, its last line the count of the analysis of the file (docs/json-report.md).
    std::map<int64_t, std::vector<uint64_t>> printedWaits;  // flow -> delayed_requests of its lines
    const std::vector<std::string> outLines = test::lines(result.out);
    for (size_t index = 0; index + 1 < outLines.size(); ++index) {
        const nlohmann::json event = nlohmann::json::parse(outLines[index]);
        if (event["kind"] == "delayed_ack_stall" && event["event"] != "finding_withdrawn") {
            printedWaits[event["flow"].get<int64_t>()].push_back(event["delayed_requests"].get<uint64_t>());
        }
    }
    std::map<int64_t, uint64_t> lastPrinted;
    size_t mostLines = 0;
    for (const auto& [flow, waits] : printedWaits) {
        INFO("flow " << flow);
        CHECK(std::is_sorted(waits.begin(), waits.end()));
        lastPrinted[flow] = waits.back();
        mostLines = std::max(mostLines, waits.size());
    }
    CHECK(lastPrinted == analysed);
    CHECK(mostLines >= 3);  // the long connection's finding, then updates as it grew
    REQUIRE(!analysed.empty());
    CHECK(std::max_element(analysed.begin(), analysed.end(), [](const auto& a, const auto& b) {
              return a.second < b.second;
          })->second >= 20);
}

}  // namespace tcpscope
