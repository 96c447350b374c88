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
#include "records/finding_record.hpp"
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
    const RecordSource source{"host-a", "0123456789abcdef", "test", TimeOrigin{}};
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

TEST_CASE("a finding of no flow names its parties, and its record's client and server are they", "[records]") {
    // The host, listener or port pool such a finding is about is typed on it when it is made, so
    // that a finding only measured so far (its evidence still to be written) names them already.
    struct Expected {
        const char* sample;
        FindingKind kind;
        const char* client;
        const char* server;
    };
    for (const auto& [name, kind, client, server] : {
             Expected{"churn-exhaustion.pcap", FindingKind::TimeWaitChurn, "127.0.0.1", ""},
             Expected{"churn-exhaustion.pcap", FindingKind::PortExhaustion, "127.0.0.1", "127.0.0.1:9000"},
             Expected{"http-close.pcap", FindingKind::TimeWaitChurn, "", "127.0.0.1"},  // the server closed first
             Expected{"backlog-overflow.pcap", FindingKind::SynBacklogOverflow, "", "127.0.0.1:9200"},
         }) {
        INFO(name << " " << findingKindName(kind));
        AnalysisOptions options;
        options.describeWhenWritten = true;
        CaptureAnalysis analysis = analyzeCaptures({sample(name)}, options);
        const auto made = std::find_if(analysis.findings.begin(), analysis.findings.end(),
                                       [&](const Finding& finding) { return finding.kind == kind; });
        REQUIRE(made != analysis.findings.end());
        CHECK(made->connection == kNoConnection);
        CHECK(made->parties.client == client);
        CHECK(made->parties.server == server);
        MemorySink sink;
        writeAnalysisRecords(RecordSource{"host-a", "0123456789abcdef", "test", TimeOrigin{}}, analysis, sink);
        const json record = sink.of("finding").at(static_cast<size_t>(made - analysis.findings.begin()));
        CHECK(record["kind"] == std::string(findingKindName(kind)));
        CHECK(record["client"] == client);
        CHECK(record["server"] == server);
    }
}

TEST_CASE("a finding record of no flow takes its client and server from the parties, not the evidence", "[records]") {
    Finding finding;
    finding.kind = FindingKind::TimeWaitChurn;
    finding.evidence = {{"host", "10.0.0.1"}, {"role", "server"}, {"client", "10.0.0.2"}, {"listener", "10.0.0.3:80"}};
    const FindingRecordParts unnamed = findingRecordParts(finding, FindingEnrichments::none(), nullptr, true);
    CHECK(unnamed.client.empty());
    CHECK(unnamed.server.empty());
    finding.parties = {"10.0.0.4", "10.0.0.5:443"};
    const FindingRecordParts named = findingRecordParts(finding, FindingEnrichments::none(), nullptr, false);
    CHECK(named.client == "10.0.0.4");
    CHECK(named.server == "10.0.0.5:443");
    CHECK(named.flowId == -1);
    CHECK(named.communityId.empty());
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

namespace {

// populationSlots as first written: every bucket expanded, every slot in a map (the reference the
// cheaper version must equal).
std::vector<SeriesSlot> slotsOfEveryBucket(const PopulationSeries& series, int64_t endTsNs, int64_t fromNs) {
    const std::vector<int64_t> buckets = series.bucketMaxima();
    if (buckets.empty()) {
        return {};
    }
    const int64_t second = 1'000'000'000;
    const int64_t bucketNs = series.bucketNs();
    const int64_t slotNs = std::max<int64_t>(1, (bucketNs + second - 1) / second) * second;
    std::map<int64_t, int64_t> slots;
    const auto raise = [&](int64_t from, int64_t to, int64_t highest) {
        if (highest <= 0) {
            return;
        }
        for (int64_t slot = from / slotNs; slot <= std::max(from, to - 1) / slotNs; ++slot) {
            slots[slot] = std::max(slots[slot], highest);
        }
    };
    for (size_t i = 0; i < buckets.size(); ++i) {
        const int64_t start = series.startTsNs() + static_cast<int64_t>(i) * bucketNs;
        if (fromNs == INT64_MIN || start + bucketNs > fromNs - slotNs) {
            raise(start, start + bucketNs, buckets[i]);
        }
    }
    int64_t heldFromNs = series.startTsNs() + static_cast<int64_t>(buckets.size()) * bucketNs;
    if (fromNs != INT64_MIN) {
        heldFromNs = std::max(heldFromNs, fromNs - slotNs);
    }
    if (endTsNs > heldFromNs) {
        raise(heldFromNs, endTsNs, series.value());
    }
    std::vector<SeriesSlot> out;
    for (const auto& [slot, highest] : slots) {
        if ((slot + 1) * slotNs > fromNs) {
            out.push_back({slot * slotNs, static_cast<uint32_t>(slotNs / second), highest});
        }
    }
    return out;
}

bool sameSlots(const std::vector<SeriesSlot>& a, const std::vector<SeriesSlot>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const SeriesSlot& x, const SeriesSlot& y) {
        return x.startNs == y.startNs && x.intervalSeconds == y.intervalSeconds && x.highest == y.highest;
    });
}

}  // namespace

TEST_CASE("population slots asked a second at a time read only the history since, with the same result", "[records][series]") {
    // A live capture asks each series once a second for the slots after those it sent; the answer
    // reads only the history since, and must be what reading every bucket gives.
    const int64_t second = 1'000'000'000;
    const int64_t base = 1'700'000'000 * second + 123'456'789;
    uint64_t state = 42;
    const auto next = [&state](uint64_t below) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % below;
    };
    PopulationSeries series;
    int64_t value = 0;
    int64_t tsNs = base;
    int64_t sentUntilNs = INT64_MIN;
    std::map<int64_t, int64_t> sent;  // slot start -> highest, as sent
    size_t passes = 0;
    for (int64_t clockNs = base + second; clockNs <= base + 40 * second; clockNs += second) {
        // Bursts of changes, and seconds with none (the held count fills them).
        if (next(3) != 0) {
            for (uint64_t change = next(200); change > 0 && tsNs < clockNs; --change) {
                tsNs += static_cast<int64_t>(next(static_cast<uint64_t>(second / 50)));
                value = std::max<int64_t>(0, value + static_cast<int64_t>(next(7)) - 3);
                series.set(std::min(tsNs, clockNs - 1), value);
            }
        }
        tsNs = std::max(tsNs, clockNs);
        const std::vector<SeriesSlot> slots = populationSlots(series, clockNs, sentUntilNs);
        REQUIRE(sameSlots(slots, slotsOfEveryBucket(series, clockNs, sentUntilNs)));
        for (const SeriesSlot& slot : slots) {
            const int64_t slotEndNs = slot.startNs + slot.intervalSeconds * second;
            if (slotEndNs <= clockNs - second && slotEndNs > sentUntilNs) {  // complete: sent
                sent[slot.startNs] = slot.highest;
                sentUntilNs = slotEndNs;
            }
        }
        ++passes;
    }
    CHECK(passes == 40);
    CHECK(series.bucketNs() > 16'000'000);  // the series was made coarser on the way
    CHECK(sent.size() > 20);
}
