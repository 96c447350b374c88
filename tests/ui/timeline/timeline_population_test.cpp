// The population view's capture-wide rows and density strips on real samples: the port pool of
// each client host against its own range (hosts-churn), TIME_WAIT as long as the analysis says
// and ended by an accepted reuse of its tuple (churn-exhaustion, http-tw-reuse,
// port-reuse-collision), and the connect() calls strace saw fail for want of a port.
#include "timeline/timeline_population.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "align/stall_confirmation.hpp"
#include "align/strace_alignment.hpp"
#include "analysis/capture_analysis.hpp"
#include "loading/analysis_results.hpp"
#include "timeline/timeline_layout.hpp"
#include "timeline/timeline_model.hpp"
#include "timeline/timeline_view.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;

namespace {

constexpr int64_t kNsPerSecond = 1'000'000'000;

ResultsPtr analysed(const std::string& capture, const AnalysisOptions& options = {},
                    const std::string& straceLog = {}) {
    CaptureAnalysis analysis = analyzeCaptures({TCPSCOPE_SOURCE_DIR "/samples/" + capture}, options);
    std::optional<StraceAlignment> alignment;
    if (!straceLog.empty()) {
        alignment = loadStraceLogs({TCPSCOPE_SOURCE_DIR "/samples/" + straceLog}, analysis, {});
        confirmFindingsWithSyscalls(analysis, *alignment);
    }
    return AnalysisResults::complete(std::move(analysis), std::move(alignment), options.detectors);
}

TimelineModel populationModel(const ResultsPtr& results) {
    TimelineModel model = TimelineModel::fromResults(*results);
    model.setGrouping(LaneGrouping::ClientToServer);
    return model;
}

// Connections in TIME_WAIT at `tsNs` by the lanes' lives (what the density strips count).
size_t lanesInTimeWait(const TimelineModel& model, int64_t tsNs) {
    return static_cast<size_t>(std::count_if(
        model.connections().begin(), model.connections().end(),
        [tsNs](const ConnectionLane& lane) { return lane.life.closedNs <= tsNs && tsNs < lane.life.timeWaitEndNs; }));
}

// The detectors' TIME_WAIT count of the busiest host at `tsNs` (the capture-wide row's series).
double detectorTimeWait(const TimelineModel& model, int64_t tsNs) {
    const CapturePopulation* population = model.population();
    REQUIRE(population != nullptr);
    REQUIRE(population->busiest() != nullptr);
    const PopulationLine* line = population->busiest()->timeWait();
    REQUIRE(line != nullptr);
    const double x = secondsSince(population->originNs, tsNs);
    return stepColumnMaxima(line->points, x, 1e-6, 1).front();
}

// The tallest bar of the laid out row `key`.
double tallestBar(const TimelineFrame& frame, PopulationRowKey key) {
    const auto row = std::find_if(frame.rows.begin(), frame.rows.end(), [key](const LayoutRow& laid) {
        return laid.kind == RowKind::Population && laid.index == key.index();
    });
    REQUIRE(row != frame.rows.end());
    double tallest = 0;
    for (const LayoutBar& bar : frame.bars) {
        if (bar.rect.y >= row->rect.y && bar.rect.bottom() <= row->rect.bottom() + 0.5) {
            tallest = std::max(tallest, bar.rect.h);
        }
    }
    return tallest;
}

}  // namespace

TEST_CASE("population rows: each client host's port pool against its own range, the others counted",
          "[timeline][population]") {
    const ResultsPtr results = analysed("hosts-churn.pcap");
    const TimelineModel model = populationModel(results);
    const CapturePopulation* population = model.population();
    REQUIRE(population != nullptr);

    // What the capture holds, by client host: its connections, all closed by it and still in
    // TIME_WAIT at the end of this 1.3 s capture, so the most ports it held at once.
    std::map<std::string, int64_t> connectionsOf;
    for (const ConnectionLane& lane : model.connections()) {
        ++connectionsOf[lane.client.address.toString()];
    }
    std::vector<std::pair<int64_t, std::string>> busiest;
    for (const auto& [host, count] : connectionsOf) {
        if (count >= kPortPoolWorthCharting) {
            busiest.emplace_back(count, host);
        }
    }
    std::sort(busiest.rbegin(), busiest.rend());
    REQUIRE(busiest.size() > kPortPoolHostsShown);  // the sample has more hosts than the rows show

    REQUIRE(population->hosts.size() == kPortPoolHostsShown);
    CHECK(population->hostsLeftOut == busiest.size() - kPortPoolHostsShown);
    for (size_t host = 0; host < population->hosts.size(); ++host) {
        const HostPortPool& pool = population->hosts[host];
        INFO(pool.host.toString());
        CHECK(pool.host.toString() == busiest[host].second);
        REQUIRE(pool.portsInUse() != nullptr);
        CHECK(pool.portsInUse()->peak == busiest[host].first);
        CHECK(pool.chart.capacityPorts == 28'232);  // each judged against its own (default) range
    }

    // Rows: the busiest host's TIME_WAIT and ports, then the ports of each other host shown.
    const std::vector<PopulationRowKey> rows = model.populationRows();
    std::vector<std::pair<PopulationRow, uint32_t>> keys;
    for (const PopulationRowKey row : rows) {
        keys.emplace_back(row.row, row.host);
    }
    std::vector<std::pair<PopulationRow, uint32_t>> expected{{PopulationRow::ConnectionRate, 0},
                                                             {PopulationRow::TimeWait, 0},
                                                             {PopulationRow::PortsInUse, 0},
                                                             {PopulationRow::PortsInUse, 1},
                                                             {PopulationRow::PortsInUse, 2}};
    if (population->handshakesWaiting.peak() >= 2) {  // a queue of handshakes, else nothing to tell
        expected.emplace_back(PopulationRow::SynWaits, 0);
    }
    CHECK(keys == expected);
    const PopulationRowLabel last = populationRowLabel(model, {PopulationRow::PortsInUse, 2});
    CHECK(last.title == "Ports in use by " + busiest[2].second);
    CHECK(last.detail.ends_with(fmt::format("· +{} hosts", busiest.size() - kPortPoolHostsShown)));
    CHECK(populationRowLabel(model, {PopulationRow::PortsInUse, 1}).title == "Ports in use by " + busiest[1].second);
    CHECK(populationRowLabel(model, {PopulationRow::PortsInUse, 1}).detail.find('+') == std::string::npos);

    // Each row scaled to its own host: the third host's peak reaches the top of its row as the
    // busiest host's does, though it held half as many ports.
    TimelineViewport viewport;
    viewport.widthPx = 1200;
    viewport.heightPx = 700;
    viewport.axis = TimeAxis::fit(model.captureRange(), viewport.gutterPx, viewport.widthPx - viewport.gutterPx);
    const TimelineFrame frame = prepareTimeline(model, viewport);
    const double busiestTop = tallestBar(frame, {PopulationRow::PortsInUse, 0});
    CHECK(busiestTop > 10);
    CHECK(tallestBar(frame, {PopulationRow::PortsInUse, 2}) == Approx(busiestTop));
    CHECK(tallestBar(frame, {PopulationRow::PortsInUse, 1}) == Approx(busiestTop));
}

TEST_CASE("density strips count TIME_WAIT for the analysis's timeWaitSeconds, as the detectors do",
          "[timeline][population]") {
    // churn-exhaustion: 100 connections closed by the client in the first 0.16 s, then a 60.65 s pause.
    for (const double timeWaitSeconds : {60.0, 30.0}) {
        INFO("TIME_WAIT " << timeWaitSeconds << " s");
        AnalysisOptions options;
        options.detectors.timeWaitSeconds = timeWaitSeconds;
        const ResultsPtr results = analysed("churn-exhaustion.pcap", options);
        const TimelineModel model = populationModel(results);
        const int64_t startNs = model.captureRange().startNs;
        for (const double atSeconds : {10.0, 45.0}) {
            INFO("at " << atSeconds << " s");
            const int64_t tsNs = startNs + static_cast<int64_t>(atSeconds * kNsPerSecond);
            const size_t inTimeWait = lanesInTimeWait(model, tsNs);
            CHECK(static_cast<double>(inTimeWait) == detectorTimeWait(model, tsNs));
            CHECK(inTimeWait == (atSeconds < timeWaitSeconds ? 100 : 0));
        }
    }
}

TEST_CASE("a TIME_WAIT ends when the capture shows its 4-tuple taken by an accepted SYN", "[timeline][population]") {
    // http-tw-reuse: 300 connections from 25 client ports, 275 SYNs accepted into the server's
    // TIME_WAIT of the tuple's previous connection; port-reuse-collision: six connections of one
    // tuple, each SYN into the previous one's TIME_WAIT, accepted after the collision's RST.
    for (const char* sample : {"http-tw-reuse.pcap", "port-reuse-collision.pcap"}) {
        INFO(sample);
        const ResultsPtr results = analysed(sample);
        const TimelineModel model = populationModel(results);
        REQUIRE(model.groups().size() == 1);
        std::set<uint16_t> clientPorts;
        size_t reused = 0;
        for (const ConnectionLane& lane : model.connections()) {
            clientPorts.insert(lane.client.port);
        }
        const ConnectionStore& connections = results->connections();
        for (size_t id = 0; id < connections.size(); ++id) {
            const Connection& later = connections[id];
            if (later.reusedFrom == kNoConnection || later.synAckTsNs == kNoTime) {
                continue;
            }
            ++reused;
            // The earlier generation's TIME_WAIT ends at the SYN that was accepted.
            CHECK(model.connections()[later.reusedFrom].life.timeWaitEndNs == later.synTsNs);
        }
        CHECK(reused == connections.size() - clientPorts.size());
        // At most one TIME_WAIT per tuple at any moment, as the detector counted the server's.
        const uint32_t peak = model.groups()[0].peaks[static_cast<size_t>(PopulationState::TimeWait)];
        CHECK(peak <= clientPorts.size());
        if (model.population() != nullptr) {
            REQUIRE(model.population()->busiest() != nullptr);
            REQUIRE(model.population()->busiest()->timeWait() != nullptr);
            CHECK(peak == model.population()->busiest()->timeWait()->peak);
        }
    }
}

TEST_CASE("the connect() calls strace saw fail for want of a port get a lane per server", "[timeline][population]") {
    const ResultsPtr results = analysed("churn-exhaustion.pcap", {}, "churn-exhaustion.strace");
    const CaptureAnalysis& analysis = *results->analysis();
    const auto exhaustion =
        std::find_if(analysis.findings.begin(), analysis.findings.end(),
                     [](const Finding& finding) { return finding.kind == FindingKind::PortExhaustion; });
    REQUIRE(exhaustion != analysis.findings.end());
    const std::optional<FailedConnects>& failed = analysis.enrichments.of(exhaustion->id).failedConnects;
    REQUIRE(failed.has_value());
    REQUIRE(exhaustion->server.has_value());

    TimelineView view;
    view.setBackgroundBuildThreshold(SIZE_MAX);
    view.resize(1200, 700);
    view.setResults(results);
    const auto failedLanes = [&view]() {
        std::vector<const ExtraLane*> lanes;
        for (const ExtraLane& lane : view.model().extraLanes()) {
            if (lane.lane.label.starts_with("failed connect()")) {
                lanes.push_back(&lane);
            }
        }
        return lanes;
    };
    const std::vector<const ExtraLane*> lanes = failedLanes();
    REQUIRE(lanes.size() == 1);  // one server
    const TimelineLane& lane = lanes.front()->lane;
    CHECK(lane.label == fmt::format("failed connect() ×{} → {}", failed->count,
                                    exhaustion->server.value().toString()));
    REQUIRE(lane.events.size() == failed->count);
    CHECK(std::all_of(lane.events.begin(), lane.events.end(),
                      [](const TimelineEvent& event) { return event.kind == EventKind::Failed; }));
    CHECK(lane.events.front().tsNs == failed->firstTsNs);
    CHECK(lane.events.back().tsNs == failed->lastTsNs);
    // Above the connections, drawn with the calls as marks.
    const TimelineFrame frame = view.prepareFrame(QSizeF(1200, 700), view.model().captureRange(), {true, 0});
    const auto row = std::find_if(frame.rows.begin(), frame.rows.end(),
                                  [](const LayoutRow& laid) { return laid.kind == RowKind::Extra; });
    REQUIRE(row != frame.rows.end());
    CHECK(row->markEnd > row->firstMark);
    const auto firstGroup = std::find_if(frame.rows.begin(), frame.rows.end(), [](const LayoutRow& laid) {
        return laid.kind == RowKind::GroupHeader || laid.kind == RowKind::Connection;
    });
    REQUIRE(firstGroup != frame.rows.end());
    CHECK(row->rect.y < firstGroup->rect.y);

    // The report's views draw their own lane, for their cause's server.
    view.setFailedConnectLanesShown(false);
    CHECK(failedLanes().empty());
}
