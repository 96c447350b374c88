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

TimelineModelBuilder::TimelineModelBuilder(const ConnectionStore& connections, const std::vector<Finding>& findings,
                                           TimeRange capture, int64_t timeWaitNs)
    : packets_(packetTracks(connections.size())) {
    TimelineModel& model = model_;
    model.capture_ = capture;
    model.connections_.resize(connections.size());
    std::vector<ConnectionLife> lives = connectionLives(connections, timeWaitNs);
    for (size_t position = 0; position < connections.size(); ++position) {
        const Connection& connection = connections[position];
        ConnectionLane& lane = model.connections_[position];
        lane.connection = static_cast<uint32_t>(position);  // ids are positions in the table
        lane.client = connection.client;
        lane.server = connection.server;
        lane.state = connection.state;
        lane.midstream = connection.midstream;
        lane.content.firstTsNs = connection.firstTsNs;
        lane.content.lastTsNs = std::max(connection.lastTsNs, connection.firstTsNs);
        lane.life = lives[position];
        if (capture.empty()) {
            model.capture_ = unite(model.capture_, lane.content.firstTsNs, lane.content.lastTsNs);
        }
    }
    model.connectionOrder_.resize(connections.size());
    std::iota(model.connectionOrder_.begin(), model.connectionOrder_.end(), 0u);
    // The table numbers connections by their first packet: sorting is only for merged captures.
    const auto byFirstPacket = [&model](uint32_t a, uint32_t b) {
        return model.connections_[a].content.firstTsNs < model.connections_[b].content.firstTsNs;
    };
    if (!std::is_sorted(model.connectionOrder_.begin(), model.connectionOrder_.end(), byFirstPacket)) {
        std::stable_sort(model.connectionOrder_.begin(), model.connectionOrder_.end(), byFirstPacket);
    }

    model.spans_ = stallSpans(findings, connections);
    for (const StallSpan& span : model.spans_) {
        LaneContent& content = span.connection < model.connections_.size() ? model.connections_[span.connection].content
                                                                           : model.captureFindings_;
        content.stalls.push_back(span);
    }
}

void TimelineModelBuilder::reservePackets(size_t packets) {
    packets_.reserve(packets);
}

void TimelineModelBuilder::addPacket(size_t packetIndex, int64_t tsNs, uint32_t connection, bool fromServer,
                                     AnalysisFlags analysis, uint8_t tcpFlags, bool hasPayload) {
    if (connection >= model_.connections_.size() || packetIndex > UINT32_MAX) {
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
    for (size_t position = 0; position < connections.size() && position < model_.connections_.size(); ++position) {
        const std::optional<uint32_t> point = sightings->pointOfFrame(connections[position].firstFrame);
        if (point && *point < points->points.size()) {
            model_.connections_[position].point = points->points[*point].point.name;
        }
    }
}

void TimelineModelBuilder::addPopulation(const AnalysisResults& results) {
    const CaptureAnalysis* analysis = results.analysis();
    if (analysis != nullptr && analysis->engine != nullptr && model_.connections_.size() >= kPopulationRowsConnections) {
        model_.population_ = std::make_shared<const CapturePopulation>(capturePopulation(*analysis));
    }
}

void TimelineModelBuilder::addPackets(const AnalysisResults& results) {
    const CaptureAnalysis* analysis = results.analysis();
    if (analysis == nullptr || analysis->engine == nullptr) {
        return;
    }
    const PacketIndex& packets = analysis->engine->packets();
    reservePackets(packets.size());
    for (size_t index = 0; index < packets.size(); ++index) {
        const IndexedPacket packet = packets.at(index);
        addPacket(index, packet.tsNs, packet.connection, packet.fromServer, packet.analysis, packet.tcpFlags,
                  packet.payloadLength > 0);
    }
}

void TimelineModelBuilder::finish(TimelineModel& model, MarkStoreBuilder& packets) {
    model.packetMarks_ = packets.finish();
    for (ConnectionLane& lane : model.connections_) {
        lane.content.toServer = model.packetMarks_->track(lane.connection * 2);
        lane.content.toClient = model.packetMarks_->track(lane.connection * 2 + 1);
        lane.content.finishStalls();
    }
    model.captureFindings_.finishStalls();
    model.bounds_ = model.capture_;
    model.layoutRows();
}

TimelineModel TimelineModelBuilder::finish() {
    finish(model_, packets_);
    return std::move(model_);
}

TimelineModel TimelineModelBuilder::lanes() const {
    TimelineModel model = model_;  // the lanes and their stalls, before any packet
    MarkStoreBuilder noPackets(packetTracks(model.connections_.size()));
    finish(model, noPackets);
    return model;
}

TimelineModel TimelineModel::fromResults(const AnalysisResults& results) {
    TimelineModelBuilder builder(results);
    builder.addPopulation(results);
    builder.addPackets(results);
    return builder.finish();
}

const ConnectionLane* TimelineModel::connection(uint32_t id) const {
    return id < connections_.size() ? &connections_[id] : nullptr;
}

std::vector<StallGroup> TimelineModel::causesPresent() const {
    std::array<bool, kStallGroupCount> present{};
    for (const StallSpan& span : spans_) {
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
    for (const StallSpan& span : spans_) {
        if (span.finding == id) {
            range = range ? TimeRange{std::min(range->startNs, span.startNs), std::max(range->endNs, span.endNs)}
                          : TimeRange{span.startNs, span.endNs};
        }
    }
    return range;
}

uint32_t TimelineModel::findingConnection(uint32_t id) const {
    for (const StallSpan& span : spans_) {
        if (span.finding == id) {
            return span.connection;
        }
    }
    return kNoConnection;
}

std::vector<uint32_t> TimelineModel::findingConnections(uint32_t id) const {
    std::vector<uint32_t> connections;
    std::vector<bool> seen(connections_.size());
    for (const StallSpan& span : spans_) {
        if (span.finding == id && span.connection < connections_.size() && !seen[span.connection]) {
            seen[span.connection] = true;
            connections.push_back(span.connection);
        }
    }
    return connections;
}

void TimelineModel::setGrouping(LaneGrouping grouping) {
    grouping_ = grouping;
    groups_.clear();
    groupOf_.assign(connections_.size(), UINT32_MAX);
    if (grouping == LaneGrouping::ClientToServer) {
        for (EndpointGroup& population : endpointGroups(connectionOrder_, [this](uint32_t id) {
                 return std::pair{connections_[id].client.address, connections_[id].server};
             })) {
            LaneGroup group;
            group.label = fmt::format("{} → {}", population.client.toString(), population.server.toString());
            group.connections = std::move(population.connections);
            groups_.push_back(std::move(group));
        }
    } else if (grouping != LaneGrouping::Connection) {
        std::map<std::string, size_t> byKey;
        for (const uint32_t id : connectionOrder_) {
            const ConnectionLane& lane = connections_[id];
            const std::string key =
                grouping == LaneGrouping::ClientAddress ? lane.client.address.toString() : lane.serverText();
            auto [slot, isNew] = byKey.try_emplace(key, groups_.size());
            if (isNew) {
                LaneGroup group;
                group.label = (grouping == LaneGrouping::ClientAddress ? "client " : "server ") + key;
                groups_.push_back(std::move(group));
            }
            groups_[slot->second].connections.push_back(id);
        }
    }
    for (uint32_t group = 0; group < groups_.size(); ++group) {
        for (const uint32_t id : groups_[group].connections) {
            groupOf_[id] = group;
        }
        describeGroup(groups_[group]);
    }
    if (grouping != LaneGrouping::Connection) {
        // A group's header lane holds its members' stalls together (its density strip stands for
        // their packets: copying a million packets into header tracks cost more than it showed).
        for (LaneGroup& group : groups_) {
            LaneContent& content = group.content;
            bool first = true;
            for (const uint32_t id : group.connections) {
                const LaneContent& member = connections_[id].content;
                content.stalls.insert(content.stalls.end(), member.stalls.begin(), member.stalls.end());
                content.firstTsNs = first ? member.firstTsNs : std::min(content.firstTsNs, member.firstTsNs);
                content.lastTsNs = first ? member.lastTsNs : std::max(content.lastTsNs, member.lastTsNs);
                first = false;
            }
            content.finishStalls();
        }
    }
    layoutRows();
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

void TimelineModel::describeGroup(LaneGroup& group) const {
    std::vector<ConnectionLife> lives;
    std::vector<StallStretch> stalls;
    lives.reserve(group.connections.size());
    for (const uint32_t id : group.connections) {
        lives.push_back(connections_[id].life);
        const std::vector<StallStretch> own = stallStretches(connections_[id].content);
        stalls.insert(stalls.end(), own.begin(), own.end());
    }
    group.peaks = peakPopulation(lives, stalls, capture_.endNs);
    std::string detail = plural(group.connections.size(), "connection", "connections");
    // The one peak that tells most about this population: handshakes queued, else stalls, else
    // TIME_WAIT (every peak is in the header's tooltip).
    const auto peak = [&group](PopulationState state) { return group.peaks[static_cast<size_t>(state)]; };
    if (peak(PopulationState::SynWait) >= 2) {
        detail += fmt::format(" · {} waiting on a SYN", peak(PopulationState::SynWait));
    } else if (peak(PopulationState::Stalled) >= 1) {
        detail += fmt::format(" · {} stalled", peak(PopulationState::Stalled));
    } else if (peak(PopulationState::TimeWait) >= 1) {
        detail += fmt::format(" · {} in TIME_WAIT", peak(PopulationState::TimeWait));
    }
    group.detail = std::move(detail);
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
    if (group < groups_.size() && groups_[group].collapsed != collapsed) {
        groups_[group].collapsed = collapsed;
        layoutRows();
    }
}

bool TimelineModel::foldGroupsAs(const TimelineModel& other) {
    if (other.grouping_ != grouping_ || other.groups_.size() != groups_.size() ||
        other.connections_.size() != connections_.size()) {
        return false;
    }
    for (size_t group = 0; group < groups_.size(); ++group) {
        groups_[group].collapsed = other.groups_[group].collapsed;
    }
    layoutRows();
    return true;
}

void TimelineModel::foldLargeGroups() {
    for (LaneGroup& group : groups_) {
        group.collapsed = group.connections.size() > kFoldedGroupConnections;
    }
    layoutRows();
}

void TimelineModel::setAllGroupsCollapsed(bool collapsed) {
    for (LaneGroup& group : groups_) {
        group.collapsed = collapsed;
    }
    layoutRows();
}

std::optional<size_t> TimelineModel::groupOfConnection(uint32_t id) const {
    if (grouping_ == LaneGrouping::Connection || id >= groupOf_.size() || groupOf_[id] == UINT32_MAX) {
        return std::nullopt;
    }
    return groupOf_[id];
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

void TimelineModel::layoutRows() {
    rows_.clear();
    hasGroupHeaders_ = false;
    rows_.reserve(connections_.size() + groups_.size() + extraLanes_.size() + 1);
    double y = 0;
    const auto add = [&](RowKind kind, uint32_t index, double height) {
        rows_.push_back({kind, index, y, height});
        y += height;
    };
    // Extra lanes under their connection: (connection, extra lane) sorted, read alongside.
    std::vector<std::pair<uint32_t, uint32_t>> attached;
    for (uint32_t extra = 0; extra < extraLanes_.size(); ++extra) {
        const uint32_t connection = extraLanes_[extra].lane.attachedConnection;
        if (connection < connections_.size()) {
            attached.emplace_back(connection, extra);
        }
    }
    std::sort(attached.begin(), attached.end());
    for (const PopulationRowKey row : populationRows()) {
        add(RowKind::Population, row.index(), heights_.populationPx);
    }
    if (!captureFindings_.stalls.empty()) {
        add(RowKind::CaptureFindings, 0, heights_.lanePx);
    }
    for (uint32_t extra = 0; extra < extraLanes_.size(); ++extra) {
        if (extraLanes_[extra].lane.attachedConnection >= connections_.size()) {
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
        for (const uint32_t id : connectionOrder_) {
            addConnection(id);
        }
        return;
    }
    for (uint32_t group = 0; group < groups_.size(); ++group) {
        if (grouping_ == LaneGrouping::ClientToServer && groups_[group].connections.size() == 1) {
            addConnection(groups_[group].connections.front());  // a population of one: its lane is all there is
            continue;
        }
        add(RowKind::GroupHeader, group, heights_.groupPx);
        hasGroupHeaders_ = true;
        if (!groups_[group].collapsed) {
            for (const uint32_t id : groups_[group].connections) {
                addConnection(id);
            }
        }
    }
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
