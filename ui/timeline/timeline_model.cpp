#include "timeline/timeline_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>

#include "decode/decoded_packet.hpp"
#include "finding/wording.hpp"
#include "loading/analysis_results.hpp"

namespace tcpscope::ui {

namespace {

constexpr AnalysisFlags kRetransmissionFlags = bit(AnalysisFlag::Retransmission) |
                                               bit(AnalysisFlag::FastRetransmission) |
                                               bit(AnalysisFlag::SpuriousRetransmission);
constexpr AnalysisFlags kZeroWindowFlags = bit(AnalysisFlag::ZeroWindow) | bit(AnalysisFlag::ZeroWindowProbe) |
                                           bit(AnalysisFlag::ZeroWindowProbeAck) | bit(AnalysisFlag::WindowFull);
constexpr AnalysisFlags kAnomalyFlags = bit(AnalysisFlag::OutOfOrder) | bit(AnalysisFlag::LostSegment) |
                                        bit(AnalysisFlag::AckLostSegment) | bit(AnalysisFlag::DuplicateAck);

uint16_t packetStyle(bool fromServer, AnalysisFlags analysis, uint8_t tcpFlags, bool hasPayload) {
    uint16_t style = 0;
    style |= fromServer ? markstyle::kFromServer : 0;
    style |= hasPayload ? markstyle::kPayload : 0;
    style |= (analysis & kRetransmissionFlags) != 0 ? markstyle::kRetransmission : 0;
    style |= (analysis & kZeroWindowFlags) != 0 ? markstyle::kZeroWindow : 0;
    style |= (analysis & kAnomalyFlags) != 0 ? markstyle::kAnomaly : 0;
    style |= (tcpFlags & tcpflag::kSyn) != 0 ? markstyle::kSyn : 0;
    style |= (tcpFlags & tcpflag::kFin) != 0 ? markstyle::kFin : 0;
    style |= (tcpFlags & tcpflag::kRst) != 0 ? markstyle::kReset : 0;
    return style;
}

TimeRange unite(TimeRange range, int64_t startNs, int64_t endNs) {
    if (range.empty() && range.startNs == 0 && range.endNs == 0) {
        return {startNs, endNs};
    }
    return {std::min(range.startNs, startNs), std::max(range.endNs, endNs)};
}

}  // namespace

void LaneContent::finishStalls() {
    std::stable_sort(stalls.begin(), stalls.end(),
                     [](const StallSpan& a, const StallSpan& b) { return a.startNs < b.startNs; });
    stallPrefixEndNs.resize(stalls.size());
    int64_t running = INT64_MIN;
    for (size_t i = 0; i < stalls.size(); ++i) {
        running = std::max(running, stalls[i].endNs);
        stallPrefixEndNs[i] = running;
    }
}

size_t LaneContent::firstStallEndingAfter(int64_t fromNs) const {
    return static_cast<size_t>(std::partition_point(stallPrefixEndNs.begin(), stallPrefixEndNs.end(),
                                                    [fromNs](int64_t end) { return end < fromNs; }) -
                               stallPrefixEndNs.begin());
}

namespace {

// The packet mark tracks of `connections` lanes: one each way.
uint32_t packetTracks(size_t connections) {
    return static_cast<uint32_t>(std::min<size_t>(connections, UINT32_MAX / 2) * 2);
}

}  // namespace

TimelineModel::TimelineModel()
    : lanes_(std::make_shared<const TimelineLanes>()), groups_(std::make_shared<const LaneGroups>()) {}

TimelineModelBuilder::TimelineModelBuilder(const ConnectionStore& connections, const FindingList& findings,
                                           TimeRange capture, int64_t timeWaitNs)
    : connections_(connections.size()), packets_(packetTracks(connections.size())) {
    model_.capture_ = capture;
    lanes_.connections.resize(connections.size());
    std::vector<ConnectionLife> lives = connectionLives(connections, timeWaitNs);
    for (size_t position = 0; position < connections.size(); ++position) {
        const Connection& connection = connections[position];
        ConnectionLane& lane = lanes_.connections[position];
        lane.connection = static_cast<uint32_t>(position);  // ids are positions in the table
        lane.client = connection.client;
        lane.server = connection.server;
        lane.state = connection.state;
        lane.midstream = connection.midstream;
        lane.content.firstTsNs = connection.firstTsNs;
        lane.content.lastTsNs = std::max(connection.lastTsNs, connection.firstTsNs);
        lane.life = lives[position];
        if (capture.empty()) {
            model_.capture_ = unite(model_.capture_, lane.content.firstTsNs, lane.content.lastTsNs);
        }
    }
    std::vector<uint32_t>& order = lanes_.order;
    order.resize(connections.size());
    std::iota(order.begin(), order.end(), 0u);
    // The table numbers connections by their first packet: sorting is only for merged captures.
    const auto byFirstPacket = [this](uint32_t a, uint32_t b) {
        return lanes_.connections[a].content.firstTsNs < lanes_.connections[b].content.firstTsNs;
    };
    if (!std::is_sorted(order.begin(), order.end(), byFirstPacket)) {
        std::stable_sort(order.begin(), order.end(), byFirstPacket);
    }

    lanes_.spans = stallSpans(findings, connections);
    for (const StallSpan& span : lanes_.spans) {
        LaneContent& content = span.connection < lanes_.connections.size() ? lanes_.connections[span.connection].content
                                                                           : lanes_.captureFindings;
        content.stalls.push_back(span);
    }
}

void TimelineModelBuilder::reservePackets(size_t packets) {
    packets_.reserve(packets);
}

void TimelineModelBuilder::addPacket(size_t packetIndex, int64_t tsNs, uint32_t connection, bool fromServer,
                                     AnalysisFlags analysis, uint8_t tcpFlags, bool hasPayload) {
    if (connection >= connections_ || packetIndex > UINT32_MAX) {
        return;
    }
    packets_.append(connection * 2 + (fromServer ? 1 : 0), tsNs, static_cast<uint32_t>(packetIndex),
                    packetStyle(fromServer, analysis, tcpFlags, hasPayload));
    ++model_.packets_;
}

TimelineModelBuilder::TimelineModelBuilder(const AnalysisResults& results)
    : TimelineModelBuilder(results.connections(), results.findings(), {results.firstTsNs(), results.lastTsNs()},
                           static_cast<int64_t>(results.detectorOptions().timeWaitSeconds * 1e9)) {
    const PointSightings* sightings = results.sightings();
    const CapturePointsSummary* points = results.points();
    if (sightings == nullptr || points == nullptr) {
        return;
    }
    // Each connection's packets all come from one point (its vantage point): its first frame's.
    const ConnectionStore& connections = results.connections();
    for (size_t position = 0; position < connections.size() && position < lanes_.connections.size(); ++position) {
        const std::optional<uint32_t> point = sightings->pointOfFrame(connections[position].firstFrame);
        if (point && *point < points->points.size()) {
            lanes_.connections[position].point = points->points[*point].point.name;
        }
    }
}

void TimelineModelBuilder::addPopulation(const AnalysisResults& results) {
    const CaptureAnalysis* analysis = results.analysis();
    if (analysis != nullptr && analysis->engine != nullptr && connections_ >= kPopulationRowsConnections) {
        model_.population_ = std::make_shared<const CapturePopulation>(capturePopulation(*analysis));
    }
}

void TimelineModelBuilder::addPackets(const AnalysisResults& results) {
    const CaptureAnalysis* analysis = results.analysis();
    if (analysis == nullptr || analysis->engine == nullptr) {
        return;
    }
    const PacketIndex& packets = analysis->engine->packets();
    // Each lane's packets counted first: the marks are then put in place as they come, instead of
    // collected first (24 bytes a packet more until finish(): 240 MB at 10 M packets).
    std::vector<uint32_t> counts(packetTracks(connections_));
    const size_t countable = std::min<size_t>(packets.size(), size_t{UINT32_MAX} + 1);
    for (size_t index = 0; index < countable; ++index) {
        const IndexedPacket packet = packets.at(index);
        if (packet.connection < connections_ && packet.connection < counts.size() / 2) {
            ++counts[packet.connection * 2 + (packet.fromServer ? 1 : 0)];
        }
    }
    packets_.expect(counts);
    counts = {};
    for (size_t index = 0; index < packets.size(); ++index) {
        const IndexedPacket packet = packets.at(index);
        addPacket(index, packet.tsNs, packet.connection, packet.fromServer, packet.analysis, packet.tcpFlags,
                  packet.payloadLength > 0);
    }
}

const std::shared_ptr<const TimelineLanes>& TimelineModelBuilder::sealedLanes() {
    if (!sealed_) {
        for (ConnectionLane& lane : lanes_.connections) {
            lane.content.finishStalls();
        }
        lanes_.captureFindings.finishStalls();
        sealed_ = std::make_shared<const TimelineLanes>(std::move(lanes_));
    }
    return sealed_;
}

TimelineModel TimelineModelBuilder::finish() {
    model_.lanes_ = sealedLanes();
    model_.packetMarks_ = packets_.finish();
    model_.bounds_ = model_.capture_;
    model_.layoutRows();
    return std::move(model_);
}

TimelineModel TimelineModelBuilder::lanes() {
    TimelineModel model = model_;  // the lanes and their stalls, before any packet
    model.lanes_ = sealedLanes();
    model.bounds_ = model.capture_;
    model.layoutRows();
    return model;
}

TimelineModel TimelineModel::fromResults(const AnalysisResults& results) {
    TimelineModelBuilder builder(results);
    builder.addPopulation(results);
    builder.addPackets(results);
    return builder.finish();
}

MarkTrack TimelineModel::packets(uint32_t id, bool fromServer) const {
    if (packetMarks_ == nullptr || id >= lanes_->connections.size()) {
        return {};
    }
    return packetMarks_->track(id * 2 + (fromServer ? 1 : 0));
}

const ConnectionLane* TimelineModel::connection(uint32_t id) const {
    return id < lanes_->connections.size() ? &lanes_->connections[id] : nullptr;
}

std::vector<StallGroup> TimelineModel::causesPresent() const {
    std::array<bool, kStallGroupCount> present{};
    for (const StallSpan& span : lanes_->spans) {
        present[static_cast<size_t>(span.cause)] = true;
    }
    std::vector<StallGroup> causes;
    for (size_t cause = 0; cause < kStallGroupCount; ++cause) {
        if (present[cause]) {
            causes.push_back(static_cast<StallGroup>(cause));
        }
    }
    return causes;
}

std::optional<TimeRange> TimelineModel::findingRange(uint32_t id) const {
    std::optional<TimeRange> range;
    for (const StallSpan& span : lanes_->spans) {
        if (span.finding == id) {
            range = range ? TimeRange{std::min(range->startNs, span.startNs), std::max(range->endNs, span.endNs)}
                          : TimeRange{span.startNs, span.endNs};
        }
    }
    return range;
}

uint32_t TimelineModel::findingConnection(uint32_t id) const {
    for (const StallSpan& span : lanes_->spans) {
        if (span.finding == id) {
            return span.connection;
        }
    }
    return kNoConnection;
}

std::vector<uint32_t> TimelineModel::findingConnections(uint32_t id) const {
    std::vector<uint32_t> connections;
    std::vector<bool> seen(lanes_->connections.size());
    for (const StallSpan& span : lanes_->spans) {
        if (span.finding == id && span.connection < seen.size() && !seen[span.connection]) {
            seen[span.connection] = true;
            connections.push_back(span.connection);
        }
    }
    return connections;
}

void TimelineModel::setGrouping(LaneGrouping grouping) {
    grouping_ = grouping;
    const std::vector<ConnectionLane>& lanes = lanes_->connections;
    auto made = std::make_shared<LaneGroups>();
    std::vector<LaneGroup>& groups = made->groups;
    std::vector<uint32_t>& members = made->members;
    // Each group's members in turn: a group takes the next stretch of `members`.
    const auto addGroup = [&groups, &members](std::span<const uint32_t> connections) {
        LaneGroup group;
        group.firstMember = static_cast<uint32_t>(members.size());
        group.members = static_cast<uint32_t>(connections.size());
        members.insert(members.end(), connections.begin(), connections.end());
        groups.push_back(std::move(group));
    };
    if (grouping == LaneGrouping::ClientToServer) {
        for (const EndpointGroup& population : endpointGroups(lanes_->order, [&lanes](uint32_t id) {
                 return std::pair{lanes[id].client.address, lanes[id].server};
             })) {
            addGroup(population.connections);
        }
    } else if (grouping != LaneGrouping::Connection) {
        std::map<std::string, size_t> byKey;
        std::vector<std::vector<uint32_t>> byGroup;
        for (const uint32_t id : lanes_->order) {
            const ConnectionLane& lane = lanes[id];
            const std::string key =
                grouping == LaneGrouping::ClientAddress ? lane.client.address.toString() : lane.serverText();
            auto [slot, isNew] = byKey.try_emplace(key, byGroup.size());
            if (isNew) {
                byGroup.emplace_back();
            }
            byGroup[slot->second].push_back(id);
        }
        for (const std::vector<uint32_t>& connections : byGroup) {
            addGroup(connections);
        }
    }
    made->groupOf.assign(lanes.size(), UINT32_MAX);
    for (uint32_t group = 0; group < groups.size(); ++group) {
        const std::span<const uint32_t> own(members.data() + groups[group].firstMember, groups[group].members);
        for (const uint32_t id : own) {
            made->groupOf[id] = group;
        }
        measureGroup(groups[group], own);
        // A group's header lane holds its members' stalls together (its density strip stands for
        // their packets: copying a million packets into header tracks cost more than it showed).
        LaneContent& content = groups[group].content;
        bool first = true;
        for (const uint32_t id : own) {
            const LaneContent& member = lanes[id].content;
            content.stalls.insert(content.stalls.end(), member.stalls.begin(), member.stalls.end());
            content.firstTsNs = first ? member.firstTsNs : std::min(content.firstTsNs, member.firstTsNs);
            content.lastTsNs = first ? member.lastTsNs : std::max(content.lastTsNs, member.lastTsNs);
            first = false;
        }
        content.finishStalls();
    }
    groups_ = std::move(made);
    collapsed_.assign(groups_->groups.size(), false);
    layoutRows();
}

bool TimelineModel::setGroupingAs(const TimelineModel& other) {
    if (!sharesLanesWith(other)) {
        return false;
    }
    grouping_ = other.grouping_;
    groups_ = other.groups_;
    collapsed_.assign(groups_->groups.size(), false);
    layoutRows();
    return true;
}

std::span<const uint32_t> TimelineModel::groupMembers(size_t group) const {
    if (group >= groups_->groups.size()) {
        return {};
    }
    const LaneGroup& lanes = groups_->groups[group];
    return {groups_->members.data() + lanes.firstMember, lanes.members};
}

std::string TimelineModel::groupLabel(size_t group) const {
    const std::span<const uint32_t> members = groupMembers(group);
    if (members.empty()) {
        return {};
    }
    const ConnectionLane& first = lanes_->connections[members.front()];
    switch (grouping_) {
        case LaneGrouping::ClientAddress: return "client " + first.client.address.toString();
        case LaneGrouping::ServerEndpoint: return "server " + first.serverText();
        case LaneGrouping::ClientToServer:
            return fmt::format("{} → {}", first.client.address.toString(), first.server.toString());
        case LaneGrouping::Connection: break;
    }
    return {};
}

std::string TimelineModel::groupDetail(size_t group) const {
    if (group >= groups_->groups.size()) {
        return {};
    }
    const LaneGroup& lanes = groups_->groups[group];
    std::string detail = plural(lanes.members, "connection", "connections");
    // The one peak that tells most about this population: handshakes queued, else stalls, else
    // TIME_WAIT (every peak is in the header's tooltip).
    const auto peak = [&lanes](PopulationState state) { return lanes.peaks[static_cast<size_t>(state)]; };
    if (peak(PopulationState::SynWait) >= 2) {
        detail += fmt::format(" · {} waiting on a SYN", peak(PopulationState::SynWait));
    } else if (peak(PopulationState::Stalled) >= 1) {
        detail += fmt::format(" · {} stalled", peak(PopulationState::Stalled));
    } else if (peak(PopulationState::TimeWait) >= 1) {
        detail += fmt::format(" · {} in TIME_WAIT", peak(PopulationState::TimeWait));
    }
    return detail;
}

std::vector<StallStretch> TimelineModel::stallStretches(const LaneContent& content) {
    // The lane's stalls are sorted by start; overlapping ones (two findings on one wait) count once.
    std::vector<StallStretch> stretches;
    for (const StallSpan& stall : content.stalls) {
        if (stall.endNs <= stall.startNs) {
            continue;  // a finding that cost no time
        }
        if (!stretches.empty() && stall.startNs <= stretches.back().endNs) {
            stretches.back().endNs = std::max(stretches.back().endNs, stall.endNs);
        } else {
            stretches.push_back({stall.startNs, stall.endNs});
        }
    }
    return stretches;
}

void TimelineModel::measureGroup(LaneGroup& group, std::span<const uint32_t> members) const {
    std::vector<ConnectionLife> lives;
    std::vector<StallStretch> stalls;
    lives.reserve(members.size());
    for (const uint32_t id : members) {
        lives.push_back(lanes_->connections[id].life);
        const std::vector<StallStretch> own = stallStretches(lanes_->connections[id].content);
        stalls.insert(stalls.end(), own.begin(), own.end());
    }
    group.peaks = peakPopulation(lives, stalls, capture_.endNs);
}

std::vector<PopulationRowKey> TimelineModel::populationRows() const {
    std::vector<PopulationRowKey> rows;
    if (grouping_ == LaneGrouping::Connection || population_ == nullptr) {
        return rows;
    }
    rows.push_back({PopulationRow::ConnectionRate});
    // The busiest host's TIME_WAIT and ports; of the other hosts, their ports (open or in TIME_WAIT)
    // alone: a row each keeps one screen for the lanes.
    for (uint32_t host = 0; host < population_->hosts.size(); ++host) {
        if (host == 0 && population_->hosts[host].timeWait() != nullptr) {
            rows.push_back({PopulationRow::TimeWait, host});
        }
        if (population_->hosts[host].portsInUse() != nullptr) {
            rows.push_back({PopulationRow::PortsInUse, host});
        }
    }
    // Handshakes waiting tell of a queue only when two waited at once (as a group's detail line).
    if (population_->handshakesWaiting.peak() >= 2) {
        rows.push_back({PopulationRow::SynWaits});
    }
    return rows;
}

void TimelineModel::setGroupCollapsed(size_t group, bool collapsed) {
    if (group < collapsed_.size() && collapsed_[group] != collapsed) {
        collapsed_[group] = collapsed;
        layoutRows();
    }
}

bool TimelineModel::foldGroupsAs(const TimelineModel& other) {
    if (other.grouping_ != grouping_ || other.groups().size() != groups().size() ||
        other.connections().size() != connections().size()) {
        return false;
    }
    collapsed_ = other.collapsed_;
    layoutRows();
    return true;
}

void TimelineModel::foldLargeGroups() {
    for (size_t group = 0; group < collapsed_.size(); ++group) {
        collapsed_[group] = groups()[group].members > kFoldedGroupConnections;
    }
    layoutRows();
}

void TimelineModel::setAllGroupsCollapsed(bool collapsed) {
    collapsed_.assign(collapsed_.size(), collapsed);
    layoutRows();
}

std::optional<size_t> TimelineModel::groupOfConnection(uint32_t id) const {
    const std::vector<uint32_t>& groupOf = groups_->groupOf;
    if (grouping_ == LaneGrouping::Connection || id >= groupOf.size() || groupOf[id] == UINT32_MAX) {
        return std::nullopt;
    }
    return groupOf[id];
}

void TimelineModel::setExtraLanes(std::vector<TimelineLane> lanes) {
    extraLanes_.clear();
    bounds_ = capture_;
    // Track 2i: lane i's calls; track 2i+1: its waits, which fold apart so that a long wait never
    // swallows the quick calls around it.
    MarkStoreBuilder marks(static_cast<uint32_t>(2 * lanes.size()));
    for (uint32_t index = 0; index < lanes.size(); ++index) {
        const TimelineLane& lane = lanes[index];
        for (size_t position = 0; position < lane.events.size() && position <= UINT32_MAX; ++position) {
            const TimelineEvent& event = lane.events[position];
            const int64_t endNs = event.tsNs + std::max<int64_t>(event.durationNs, 0);
            const uint32_t track = 2 * index + (event.kind == EventKind::Wait ? 1 : 0);
            marks.append(track, event.tsNs, static_cast<uint32_t>(position), eventStyle(event.kind), endNs);
            bounds_ = unite(bounds_, event.tsNs, endNs);
        }
    }
    extraMarks_ = marks.finish();
    for (uint32_t index = 0; index < lanes.size(); ++index) {
        extraLanes_.push_back({std::move(lanes[index]), extraMarks_->track(2 * index), extraMarks_->track(2 * index + 1)});
    }
    layoutRows();
}

void TimelineModel::setRowHeights(RowHeights heights) {
    heights_ = heights;
    layoutRows();
}

size_t TimelineModel::laneRowCount() const {
    if (grouping_ == LaneGrouping::Connection) {
        return lanes_->connections.size();
    }
    size_t rows = 0;
    for (uint32_t group = 0; group < groups().size(); ++group) {
        rows += laneAlone(group) ? 1 : 1 + (collapsed_[group] ? 0 : groups()[group].members);
    }
    return rows;
}

bool TimelineModel::laneAlone(size_t group) const {
    return grouping_ == LaneGrouping::ClientToServer && groups()[group].members == 1;
}

void TimelineModel::layoutRows() {
    hasGroupHeaders_ = false;
    const size_t connections = lanes_->connections.size();
    // As many as there will be (the extra lanes at most): a million lanes' rows are tens of MB, and a
    // fold leaves fewer than before.
    const std::vector<PopulationRowKey> population = populationRows();
    std::vector<LaneRow> rows;
    rows.reserve(population.size() + 1 + extraLanes_.size() + laneRowCount());
    double y = 0;
    const auto add = [&](RowKind kind, uint32_t index, double height) {
        rows.push_back({kind, index, y, height});
        y += height;
    };
    // Extra lanes under their connection: (connection, extra lane) sorted, read alongside.
    std::vector<std::pair<uint32_t, uint32_t>> attached;
    for (uint32_t extra = 0; extra < extraLanes_.size(); ++extra) {
        const uint32_t connection = extraLanes_[extra].lane.attachedConnection;
        if (connection < connections) {
            attached.emplace_back(connection, extra);
        }
    }
    std::sort(attached.begin(), attached.end());
    for (const PopulationRowKey row : population) {
        add(RowKind::Population, row.index(), heights_.populationPx);
    }
    if (!lanes_->captureFindings.stalls.empty()) {
        add(RowKind::CaptureFindings, 0, heights_.lanePx);
    }
    for (uint32_t extra = 0; extra < extraLanes_.size(); ++extra) {
        if (extraLanes_[extra].lane.attachedConnection >= connections) {
            add(RowKind::Extra, extra, heights_.extraPx);
        }
    }
    const auto addConnection = [&](uint32_t id) {
        add(RowKind::Connection, id, heights_.lanePx);
        if (attached.empty()) {
            return;
        }
        for (auto lane = std::lower_bound(attached.begin(), attached.end(), std::pair<uint32_t, uint32_t>{id, 0});
             lane != attached.end() && lane->first == id; ++lane) {
            add(RowKind::Extra, lane->second, heights_.extraPx);
        }
    };
    if (grouping_ == LaneGrouping::Connection) {
        for (const uint32_t id : lanes_->order) {
            addConnection(id);
        }
        rows_ = std::move(rows);
        return;
    }
    for (uint32_t group = 0; group < groups().size(); ++group) {
        const std::span<const uint32_t> members = groupMembers(group);
        if (laneAlone(group)) {
            addConnection(members.front());  // a population of one: its lane is all there is
            continue;
        }
        add(RowKind::GroupHeader, group, heights_.groupPx);
        hasGroupHeaders_ = true;
        if (!collapsed_[group]) {
            for (const uint32_t id : members) {
                addConnection(id);
            }
        }
    }
    rows_ = std::move(rows);
}

std::optional<size_t> TimelineModel::rowAt(double yPx) const {
    const auto after =
        std::upper_bound(rows_.begin(), rows_.end(), yPx, [](double y, const LaneRow& row) { return y < row.topPx; });
    if (after == rows_.begin()) {
        return std::nullopt;
    }
    const auto row = std::prev(after);
    if (yPx >= row->topPx + row->heightPx) {
        return std::nullopt;
    }
    return static_cast<size_t>(row - rows_.begin());
}

size_t TimelineModel::markMemoryBytes() const {
    size_t bytes = 0;
    for (const auto* store : {packetMarks_.get(), extraMarks_.get()}) {
        bytes += store != nullptr ? store->memoryBytes() : 0;
    }
    return bytes;
}

std::optional<size_t> TimelineModel::rowOfGroup(size_t group) const {
    for (size_t row = 0; row < rows_.size(); ++row) {
        if (rows_[row].kind == RowKind::GroupHeader && rows_[row].index == group) {
            return row;
        }
    }
    return std::nullopt;
}

std::optional<size_t> TimelineModel::rowOfConnection(uint32_t id) const {
    for (size_t row = 0; row < rows_.size(); ++row) {
        if (rows_[row].kind == RowKind::Connection && rows_[row].index == id) {
            return row;
        }
    }
    return std::nullopt;
}

}  // namespace tcpscope::ui
