// The records of the sample captures against the analysis they come from: one flow record per
// connection, one finding record per finding, and series that say what the detectors counted.
#include "records/analysis_records.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "records/community_id.hpp"
#include "records/series_records.hpp"

namespace {

using nlohmann::json;
using namespace tcpscope;

struct MemorySink : RecordSink {
    std::vector<json> records;
    std::vector<int64_t> times;
    void write(RecordType type, int64_t tsNs, std::string_view line) override {
        json record = json::parse(line);
        CHECK(record["record"] == std::string(recordTypeName(type)));
        CHECK(record["ts_ns"].get<int64_t>() == tsNs);
        records.push_back(std::move(record));
        times.push_back(tsNs);
    }
    [[nodiscard]] std::vector<json> of(const std::string& type) const {
        std::vector<json> out;
        std::copy_if(records.begin(), records.end(), std::back_inserter(out),
                     [&](const json& record) { return record["record"] == type; });
        return out;
    }
};

std::string sample(const std::string& name) {
    return std::string(TCPSCOPE_SOURCE_DIR) + "/samples/" + name;
}

struct Exported {
    CaptureAnalysis analysis;
    MemorySink sink;
    RecordCounts counts;
};

Exported exportSample(const std::string& name) {
    Exported exported;
    exported.analysis = analyzeCaptures({sample(name)}, AnalysisOptions{});
    const RecordSource source{"host-a", "0123456789abcdef", "test"};
    exported.counts = writeAnalysisRecords(source, exported.analysis, exported.sink);
    return exported;
}

}  // namespace

TEST_CASE("every sample gives one flow record per connection and one finding record per finding", "[records]") {
    for (const char* name : {"churn-exhaustion.pcap", "proxy-nagle.pcap", "port-reuse-collision.pcap",
                             "backlog-overflow.pcap", "http-close.pcap"}) {
        INFO(name);
        const Exported exported = exportSample(name);
        const auto& connections = exported.analysis.engine->connections();
        const auto flows = exported.sink.of("flow");
        const auto findings = exported.sink.of("finding");
        REQUIRE(flows.size() == connections.size());
        REQUIRE(findings.size() == exported.analysis.findings.size());
        CHECK(exported.counts.of(RecordType::Flow) == flows.size());
        CHECK(exported.counts.of(RecordType::Finding) == findings.size());
        CHECK(exported.counts.of(RecordType::Series) == exported.sink.of("series").size());
        for (const json& record : exported.sink.records) {
            CHECK(record["schema"] == "tcpscope-record/1");
            CHECK(record["host"] == "host-a");
            CHECK(record["capture_id"] == "0123456789abcdef");
        }
        double flowTimeLostMs = 0;
        for (size_t i = 0; i < flows.size(); ++i) {
            const Connection& connection = connections[i];
            CHECK(flows[i]["flow_id"] == connection.id);
            CHECK(flows[i]["client_port"] == connection.client.port);
            CHECK(flows[i]["server_ip"] == connection.server.address.toString());
            CHECK(flows[i]["ts_ns"].get<int64_t>() == connection.firstTsNs);
            CHECK(flows[i]["end_ts_ns"].get<int64_t>() == connection.lastTsNs);
            CHECK(flows[i]["community_id"] == communityIdV1(connection.server, connection.client));
            CHECK(flows[i]["packets_c2s"].get<uint64_t>() + flows[i]["packets_s2c"].get<uint64_t>() ==
                  connection.sent[0].packets + connection.sent[1].packets);
            flowTimeLostMs += flows[i]["time_lost_ms"].get<double>();
        }
        double findingTimeLostMs = 0;
        for (size_t i = 0; i < findings.size(); ++i) {
            const Finding& finding = exported.analysis.findings[i];
            CHECK(findings[i]["kind"] == std::string(findingKindName(finding.kind)));
            CHECK(findings[i]["flow_id"].get<int64_t>() ==
                  (finding.connection == kNoConnection ? -1 : int64_t{finding.connection}));
            CHECK(json::parse(findings[i]["evidence"].get<std::string>()).is_object());
            if (finding.connection != kNoConnection) {
                findingTimeLostMs += finding.durationMs;
                CHECK(findings[i]["community_id"] == flows[finding.connection]["community_id"]);
            } else {
                CHECK(findings[i]["community_id"] == "");
            }
        }
        CHECK(flowTimeLostMs == Approx(findingTimeLostMs).margin(0.01 * static_cast<double>(flows.size())));
    }
}

TEST_CASE("series records hold the peaks the detectors judged on", "[records][series]") {
    const Exported exported = exportSample("churn-exhaustion.pcap");
    std::map<std::string, int64_t> peakBySeries;
    for (const json& record : exported.sink.of("series")) {
        CHECK(record["interval_s"].get<uint32_t>() >= 1);
        CHECK(record["value"].get<int64_t>() > 0);
        CHECK(record["ts_ns"].get<int64_t>() % 1'000'000'000 == 0);
        int64_t& peak = peakBySeries[record["series"].get<std::string>()];
        peak = std::max(peak, record["value"].get<int64_t>());
    }
    for (const Finding& finding : exported.analysis.findings) {
        if (finding.kind == FindingKind::PortExhaustion) {
            CHECK(peakBySeries["ports_in_use"] == finding.evidence["peak_ports_in_use"].get<int64_t>());
        } else if (finding.kind == FindingKind::TimeWaitChurn) {
            CHECK(peakBySeries["time_wait"] == finding.evidence["peak_population"].get<int64_t>());
        }
    }
    // Every connection of the sample was opened with a SYN: the rates add up to the connections.
    int64_t opened = 0;
    for (const json& record : exported.sink.of("series")) {
        if (record["series"] == "connection_rate") {
            CHECK(record["server"] == "127.0.0.1:9000");
            opened += record["value"].get<int64_t>();
        }
    }
    CHECK(opened == static_cast<int64_t>(exported.analysis.engine->connections().size()));
}

TEST_CASE("population slots are aligned UTC seconds holding the highest count", "[records][series]") {
    PopulationSeries series;
    const int64_t second = 1'000'000'000;
    const int64_t base = 1'700'000'000 * second;
    series.set(base + second / 2, 3);       // 0.5 s: 3
    series.set(base + second / 2 + 10, 1);  // back to 1 at once: the second's highest stays 3
    series.set(base + 2 * second + 1, 0);   // 2 s: 0
    series.set(base + 4 * second, 2);       // 4 s: 2, held until the end
    const auto slots = populationSlots(series, base + 6 * second + 5);
    std::map<int64_t, int64_t> bySecond;
    for (const SeriesSlot& slot : slots) {
        CHECK(slot.intervalSeconds == 1);
        bySecond[(slot.startNs - base) / second] = slot.highest;
    }
    // By then the series keeps 8 ms steps from 0.5 s on: the step holding 4.0 s starts at 3.996 s, so
    // second 3 shows its 2 as well (a step counts in every second it touches: no peak is missed).
    CHECK(bySecond == std::map<int64_t, int64_t>{{0, 3}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 2}, {6, 2}});
}
