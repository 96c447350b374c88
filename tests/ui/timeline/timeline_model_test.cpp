// Timeline lanes: one per connection or grouped, stall spans from findings, extra lanes.
#include "timeline/timeline_model.hpp"

#include <catch2/catch.hpp>

#include "ui/timeline_support.hpp"

using namespace tcpscope;
using namespace tcpscope::ui;
using namespace timeline_test;

namespace {
constexpr int64_t kT0 = 1'795'231'732'000'000'000;
constexpr int64_t kMs = 1'000'000;

// Three connections from two clients to two servers, out of id order in time.
TimelineModel threeConnections(FindingList findings = {}) {
    const ConnectionStore connections = {
        connection(0, endpoint(10, 0, 0, 1, 5000), endpoint(10, 0, 0, 9, 80), kT0 + 50 * kMs, kT0 + 900 * kMs),
        connection(1, endpoint(10, 0, 0, 2, 5001), endpoint(10, 0, 0, 9, 80), kT0, kT0 + 300 * kMs),
        connection(2, endpoint(10, 0, 0, 1, 5002), endpoint(10, 0, 0, 9, 443), kT0 + 10 * kMs, kT0 + 20 * kMs),
    };
    TimelineModelBuilder builder(connections, findings, {kT0, kT0 + 900 * kMs});
    builder.addPacket(0, kT0, 1, false, 0, 0x02, false);
    builder.addPacket(1, kT0 + 10 * kMs, 2, false, 0, 0x02, false);
    builder.addPacket(2, kT0 + 50 * kMs, 0, false, 0, 0x02, false);
    builder.addPacket(3, kT0 + 60 * kMs, 0, true, bit(AnalysisFlag::ZeroWindow), 0x10, false);
    builder.addPacket(4, kT0 + 70 * kMs, 0, false, bit(AnalysisFlag::Retransmission), 0x18, true);
    return builder.finish();
}

std::vector<std::pair<RowKind, uint32_t>> rowSummary(const TimelineModel& model) {
    std::vector<std::pair<RowKind, uint32_t>> rows;
    for (const LaneRow& row : model.rows()) {
        rows.emplace_back(row.kind, row.index);
    }
    return rows;
}

std::vector<uint32_t> members(const TimelineModel& model, size_t group) {
    const std::span<const uint32_t> connections = model.groupMembers(group);
    return {connections.begin(), connections.end()};
}
}  // namespace

TEST_CASE("one lane per connection, in order of the first packet", "[timeline][model]") {
    TimelineModel model = threeConnections();
    using Rows = std::vector<std::pair<RowKind, uint32_t>>;
    CHECK(rowSummary(model) == Rows{{RowKind::Connection, 1}, {RowKind::Connection, 2}, {RowKind::Connection, 0}});
    model.setRowHeights({40, 20});
    CHECK(model.rows()[1].topPx == 40);
    CHECK(model.totalHeightPx() == 120);
    CHECK(model.rowAt(0) == size_t{0});
    CHECK(model.rowAt(79.5) == size_t{1});
    CHECK_FALSE(model.rowAt(120).has_value());
    CHECK(model.rowOfConnection(0) == size_t{2});
    CHECK(model.hasPackets());
    CHECK(model.packetCount() == 5);

    const ConnectionLane& lane = model.connections()[0];
    CHECK(lane.clientText() == "10.0.0.1:5000");
    CHECK(lane.serverText() == "10.0.0.9:80");
    const MarkTrack toServer = model.packets(0, false);
    const MarkTrack toClient = model.packets(0, true);
    REQUIRE(toServer.size() == 2);
    REQUIRE(toClient.size() == 1);
    CHECK(toServer.item(1) == 4);
    CHECK((toServer.style(1) & markstyle::kRetransmission) != 0);
    CHECK((toServer.style(0) & markstyle::kSyn) != 0);
    CHECK((toClient.style(0) & markstyle::kZeroWindow) != 0);
    CHECK((toClient.style(0) & markstyle::kFromServer) != 0);
    CHECK(model.packets(lane.connection + 3, false).empty());  // no such connection
}

TEST_CASE("lanes grouped by client address or by server endpoint, groups collapse", "[timeline][model]") {
    TimelineModel model = threeConnections();
    using Rows = std::vector<std::pair<RowKind, uint32_t>>;

    model.setGrouping(LaneGrouping::ClientAddress);
    REQUIRE(model.groups().size() == 2);
    CHECK(model.groupLabel(0) == "client 10.0.0.2");
    CHECK(model.groupLabel(1) == "client 10.0.0.1");
    CHECK(members(model, 1) == std::vector<uint32_t>{2, 0});
    CHECK(rowSummary(model) == Rows{{RowKind::GroupHeader, 0},
                                    {RowKind::Connection, 1},
                                    {RowKind::GroupHeader, 1},
                                    {RowKind::Connection, 2},
                                    {RowKind::Connection, 0}});
    // The header lane spans its members' time and tells their number; their packets are its
    // density strip's business, not marks of their own.
    const LaneContent& both = model.groups()[1].content;
    CHECK(model.groupDetail(1) == "2 connections");
    CHECK(both.firstTsNs == kT0 + 10 * kMs);
    CHECK(both.lastTsNs == kT0 + 900 * kMs);

    model.setGroupCollapsed(1, true);
    CHECK(rowSummary(model) == Rows{{RowKind::GroupHeader, 0}, {RowKind::Connection, 1}, {RowKind::GroupHeader, 1}});
    CHECK_FALSE(model.rowOfConnection(0).has_value());
    CHECK(model.groupOfConnection(0) == size_t{1});

    model.setGrouping(LaneGrouping::ServerEndpoint);
    REQUIRE(model.groups().size() == 2);
    CHECK(model.groupLabel(0) == "server 10.0.0.9:80");
    CHECK(members(model, 0) == std::vector<uint32_t>{1, 0});
    CHECK(model.groupLabel(1) == "server 10.0.0.9:443");

    model.setGrouping(LaneGrouping::Connection);
    CHECK(model.groups().empty());
    CHECK(model.rows().size() == 3);
    CHECK_FALSE(model.groupOfConnection(0).has_value());
}

TEST_CASE("a delayed-ACK finding gives one span per held segment, labelled Nagle", "[timeline][model]") {
    const Finding nagle = nagleFinding(7, 0, kT0 + 100 * kMs, {{0.0, 40.1}, {102.5, 47.0}});
    TimelineModel model = threeConnections({nagle});
    const std::vector<StallSpan>& stalls = model.connections()[0].content.stalls;
    REQUIRE(stalls.size() == 2);
    CHECK(stalls[0].startNs == kT0 + 100 * kMs);
    CHECK(stalls[0].endNs == kT0 + 100 * kMs + 40'100'000);
    CHECK(stalls[1].startNs == kT0 + 202'500'000);
    CHECK(stalls[1].endNs == kT0 + 249'500'000);
    CHECK(stalls[1].instance == 1);
    CHECK(stalls[1].finding == 7);
    CHECK(stalls[0].cause == StallGroup::NagleDelayedAck);
    CHECK(stallGroupLabel(stalls[0].cause) == "Nagle + delayed ACK");
    CHECK(model.findingRange(7) == ui::TimeRange{kT0 + 100 * kMs, kT0 + 249'500'000});
    CHECK(model.findingConnection(7) == 0);
    CHECK(model.causesPresent() == std::vector<StallGroup>{StallGroup::NagleDelayedAck});
}

TEST_CASE("findings without instances span their time and duration, capture-wide ones get a lane",
          "[timeline][model]") {
    Finding reuse;
    reuse.id = 1;
    reuse.kind = FindingKind::PortReuse;
    reuse.connection = 2;
    reuse.tsNs = kT0 + 10 * kMs;
    reuse.durationMs = 5;
    Finding exhaustion;
    exhaustion.id = 2;
    exhaustion.kind = FindingKind::PortExhaustion;
    exhaustion.tsNs = kT0 + 100 * kMs;
    exhaustion.durationMs = 1500;
    exhaustion.spans = {{.startNs = exhaustion.tsNs, .endNs = exhaustion.tsNs + 200 * kMs},
                        {.startNs = exhaustion.tsNs + 500 * kMs, .endNs = exhaustion.tsNs + 800 * kMs}};
    Finding backlog;
    backlog.id = 3;
    backlog.kind = FindingKind::SynBacklogOverflow;
    backlog.tsNs = kT0;
    backlog.spans = {{.startNs = kT0, .endNs = kT0 + 1000 * kMs, .connection = 1}};

    TimelineModel model = threeConnections({reuse, exhaustion, backlog});
    const auto& onTwo = model.connections()[2].content.stalls;
    REQUIRE(onTwo.size() == 1);
    CHECK(onTwo[0].startNs == kT0 + 10 * kMs);
    CHECK(onTwo[0].endNs == kT0 + 15 * kMs);
    CHECK(onTwo[0].instance == StallSpan::kWholeFinding);

    const auto& onOne = model.connections()[1].content.stalls;
    REQUIRE(onOne.size() == 1);
    CHECK(onOne[0].cause == StallGroup::SynBacklog);
    CHECK(onOne[0].startNs == kT0);
    CHECK(onOne[0].endNs == kT0 + 1000 * kMs);

    const auto& wide = model.captureFindings().stalls;
    REQUIRE(wide.size() == 2);
    CHECK(wide[1].startNs == kT0 + 600 * kMs);
    CHECK(wide[1].endNs == kT0 + 900 * kMs);
    CHECK(model.rows().front().kind == RowKind::CaptureFindings);
}

TEST_CASE("partial results: lanes from the connections' times and the findings, no packets", "[timeline][model]") {
    const ConnectionStore connections = {
        connection(0, endpoint(10, 0, 0, 1, 5000), endpoint(10, 0, 0, 9, 80), kT0, kT0 + 700 * kMs)};
    const FindingList findings = {nagleFinding(0, 0, kT0 + 100 * kMs, {{0.0, 40.0}})};
    TimelineModel model = TimelineModelBuilder(connections, findings, {}).finish();
    CHECK_FALSE(model.hasPackets());
    CHECK(model.rows().size() == 1);
    CHECK(model.captureRange() == ui::TimeRange{kT0, kT0 + 700 * kMs});
    CHECK(model.connections()[0].content.stalls.size() == 1);
    CHECK(model.connections()[0].content.lastTsNs == kT0 + 700 * kMs);
}

TEST_CASE("a builder's lanes are what it finishes with before its packets, and it goes on to the packets",
          "[timeline][model]") {
    const ConnectionStore connections = {
        connection(0, endpoint(10, 0, 0, 1, 5000), endpoint(10, 0, 0, 9, 80), kT0 + 50 * kMs, kT0 + 900 * kMs),
        connection(1, endpoint(10, 0, 0, 2, 5001), endpoint(10, 0, 0, 9, 80), kT0, kT0 + 300 * kMs)};
    const FindingList findings = {nagleFinding(0, 0, kT0 + 100 * kMs, {{0.0, 40.0}})};
    const TimelineModel withoutPackets = TimelineModelBuilder(connections, findings, {kT0, kT0 + 900 * kMs}).finish();

    TimelineModelBuilder builder(connections, findings, {kT0, kT0 + 900 * kMs});
    const TimelineModel lanes = builder.lanes();
    CHECK_FALSE(lanes.hasPackets());
    CHECK(rowSummary(lanes) == rowSummary(withoutPackets));
    CHECK(lanes.captureRange() == withoutPackets.captureRange());
    CHECK(lanes.spans().size() == 1);
    CHECK(lanes.connections()[0].content.stalls.size() == 1);
    CHECK(lanes.packets(0, false).size() == 0);

    builder.addPacket(0, kT0, 1, false, 0, 0x02, false);
    builder.addPacket(1, kT0 + 50 * kMs, 0, false, 0, 0x02, false);
    builder.addPacket(2, kT0 + 60 * kMs, 0, true, 0, 0x12, false);
    const TimelineModel full = builder.finish();
    CHECK(full.packetCount() == 3);
    CHECK(rowSummary(full) == rowSummary(lanes));
    CHECK(full.packets(0, false).size() == 1);
    CHECK(full.packets(0, true).size() == 1);
    CHECK(full.connections()[0].content.stalls.size() == 1);
    // The lanes handed out before are the same lanes, shared, not copied; the packets did not reach them.
    CHECK(full.sharesLanesWith(lanes));
    CHECK(&full.connections() == &lanes.connections());
    CHECK(lanes.packets(0, false).size() == 0);
    CHECK_FALSE(lanes.hasPackets());
}

TEST_CASE("extra lanes: above the connections or under the one they belong to", "[timeline][model]") {
    TimelineModel model = threeConnections();
    std::vector<TimelineLane> lanes(2);
    lanes[0].label = "proxy (pid 30376)";
    lanes[0].events = {{kT0 - 5 * kMs, 2 * kMs, "epoll_wait"}, {kT0 + 1 * kMs, 0, "write 35"}};
    lanes[1].label = "fd 5";
    lanes[1].attachedConnection = 0;
    lanes[1].events = {{kT0 + 950 * kMs, 0, "close"}, {kT0 + 60 * kMs, 10, "read 128"}};  // out of order
    model.setExtraLanes(lanes);

    using Rows = std::vector<std::pair<RowKind, uint32_t>>;
    CHECK(rowSummary(model) == Rows{{RowKind::Extra, 0},
                                    {RowKind::Connection, 1},
                                    {RowKind::Connection, 2},
                                    {RowKind::Connection, 0},
                                    {RowKind::Extra, 1}});
    CHECK(model.rows()[0].heightPx == model.rowHeights().extraPx);
    // The events widen what "show everything" shows, not the capture's own range.
    CHECK(model.bounds() == ui::TimeRange{kT0 - 5 * kMs, kT0 + 950 * kMs});
    CHECK(model.captureRange() == ui::TimeRange{kT0, kT0 + 900 * kMs});
    const MarkTrack& events = model.extraLanes()[1].events;
    REQUIRE(events.size() == 2);
    CHECK(events.item(0) == 1);  // sorted by time, item = position in the lane's list
    CHECK(events.endNs(0) == kT0 + 60 * kMs + 10);

    // Grouping keeps attached lanes under their connection.
    model.setGrouping(LaneGrouping::ServerEndpoint);
    const auto rows = rowSummary(model);
    const auto connectionRow = std::find(rows.begin(), rows.end(), std::make_pair(RowKind::Connection, 0u));
    REQUIRE(connectionRow != rows.end());
    REQUIRE(std::next(connectionRow) != rows.end());
    CHECK(*std::next(connectionRow) == std::make_pair(RowKind::Extra, 1u));

    model.setExtraLanes({});
    CHECK(model.bounds() == model.captureRange());
}

TEST_CASE("populations: client host to server endpoint, a group of one is its lane alone, large ones fold",
          "[timeline][model]") {
    using Rows = std::vector<std::pair<RowKind, uint32_t>>;
    SECTION("three connections of three populations stay three lanes") {
        TimelineModel model = threeConnections();
        model.setGrouping(LaneGrouping::ClientToServer);
        REQUIRE(model.groups().size() == 3);
        CHECK(model.groupLabel(0) == "10.0.0.2 → 10.0.0.9:80");
        CHECK(rowSummary(model) == Rows{{RowKind::Connection, 1}, {RowKind::Connection, 2}, {RowKind::Connection, 0}});
        CHECK(model.populationRows().empty());  // built from parts: no packet index for the capture-wide rows
    }
    SECTION("twelve connections of one client to one listener: one header, folded") {
        ConnectionStore connections;
        for (uint32_t id = 0; id < 12; ++id) {
            connections.append(connection(id, endpoint(10, 0, 0, 1, static_cast<uint16_t>(40000 + id)),
                                          endpoint(10, 0, 0, 9, 80), kT0 + id * 100 * kMs, kT0 + id * 100 * kMs + 50 * kMs));
        }
        TimelineModelBuilder builder(connections, {}, {kT0, kT0 + 1200 * kMs});
        TimelineModel model = builder.finish();
        model.setGrouping(LaneGrouping::ClientToServer);
        REQUIRE(model.groups().size() == 1);
        CHECK(model.groupMembers(0).size() == 12);
        model.foldLargeGroups();
        CHECK(rowSummary(model) == Rows{{RowKind::GroupHeader, 0}});
        // Each lives 50 ms, one every 100 ms: never two open at once.
        CHECK(model.groups()[0].peaks[static_cast<size_t>(PopulationState::Open)] == 1);
        CHECK(model.groupDetail(0).rfind("12 connections", 0) == 0);
        CHECK_FALSE(model.rowOfConnection(5).has_value());
        model.setGroupCollapsed(0, false);
        CHECK(model.rows().size() == 13);
    }
}
