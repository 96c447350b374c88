#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "detect/detector_options.hpp"
#include "finding/finding.hpp"
#include "finding/finding_list.hpp"
#include "series/capture_population.hpp"
#include "series/endpoint_groups.hpp"
#include "tcp/analysis_flags.hpp"
#include "tcp/connection.hpp"
#include "timeline/timeline_axis.hpp"
#include "timeline/timeline_stalls.hpp"
#include "timeline/timeline_track.hpp"
#include "views/event_kind.hpp"

namespace tcpscope::ui {

class AnalysisResults;

/// How connection lanes are arranged.
enum class LaneGrouping : uint8_t {
    Connection,      ///< one lane per connection, in order of their first packet
    ClientAddress,   ///< a header lane per client address, its connections below
    ServerEndpoint,  ///< a header lane per server address and port, its connections below
    ClientToServer,  ///< a header lane per client host and server endpoint (a population), with its
                     ///< density strip; a group of one connection is that connection's lane alone
};

/// A population of more connections than this opens folded to its density strip: about what
/// a 1366 x 768 window shows as lanes.
inline constexpr size_t kFoldedGroupConnections = 8;
/// Captures of at least this many connections get the capture-wide population rows.
inline constexpr size_t kPopulationRowsConnections = 10;

/// The capture-wide rows of the population view, top to bottom.
enum class PopulationRow : uint8_t {
    ConnectionRate,  ///< new connections (first SYNs) per second, SYN retransmissions
    TimeWait,        ///< TIME_WAIT population of a host against its port range (one row per host charted)
    PortsInUse,      ///< ephemeral ports that host holds towards one server
    SynWaits,        ///< connections waiting on their handshake (a full SYN queue)
};
inline constexpr uint32_t kPopulationRowKinds = 4;

/// A capture-wide row: what it counts and, for TimeWait and PortsInUse, whose port pool (a
/// position in CapturePopulation::hosts, the busiest host 0).
struct PopulationRowKey {
    PopulationRow row = PopulationRow::ConnectionRate;
    uint32_t host = 0;

    /// Its LaneRow::index: the PopulationRow value for the busiest host's rows and the others.
    [[nodiscard]] uint32_t index() const { return host * kPopulationRowKinds + static_cast<uint32_t>(row); }
    /// The key of the row whose LaneRow::index is `index`.
    [[nodiscard]] static PopulationRowKey of(uint32_t index) {
        return {static_cast<PopulationRow>(index % kPopulationRowKinds), index / kPopulationRowKinds};
    }
};

/// One event of an extra lane: an instant or a stretch of time, with a short label ("write 35").
struct TimelineEvent {
    int64_t tsNs = 0;
    int64_t durationNs = 0;
    std::string label;
    EventKind kind = EventKind::Other;
};

/// A lane of events from outside the capture (the system calls of a traced process, ...), drawn
/// on the same time axis as the connections.
struct TimelineLane {
    std::string label;
    std::vector<TimelineEvent> events;  ///< sorted by tsNs (sorted again if not)
    /// Shown right below this connection's lane; kNoConnection: above every connection lane.
    uint32_t attachedConnection = kNoConnection;
};

/// The stalls a lane draws, sorted by start (a connection's packets are its model's:
/// TimelineModel::packets).
struct LaneContent {
    std::vector<StallSpan> stalls;
    std::vector<int64_t> stallPrefixEndNs;  ///< running maximum of the stalls' ends
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;

    /// Sorts the stalls and indexes their ends; call after filling them.
    void finishStalls();
    /// Index of the first stall that may reach into [fromNs, ...).
    [[nodiscard]] size_t firstStallEndingAfter(int64_t fromNs) const;
};

/// The lane of one connection.
struct ConnectionLane {
    uint32_t connection = kNoConnection;
    Endpoint client;
    Endpoint server;
    ConnectionState state = ConnectionState::Established;
    bool midstream = false;
    ConnectionLife life;  ///< handshake wait, open, TIME_WAIT: what the density strips count
    LaneContent content;
    std::string point;  ///< several capture points: the one the connection was analysed from, else empty

    /// "127.0.0.1:58562"
    [[nodiscard]] std::string clientText() const { return client.toString(); }
    /// "127.0.0.1:3307"
    [[nodiscard]] std::string serverText() const { return server.toString(); }
};

/// Connections sharing a client address or a server endpoint. Its members, label and detail line
/// are its model's (TimelineModel::groupMembers, groupLabel, groupDetail), so that a group holds no
/// string or vector of its own: a capture of a million connections has nearly as many groups.
struct LaneGroup {
    uint32_t firstMember = 0;  ///< where its members start in the model's member list
    uint32_t members = 0;      ///< how many connections it has
    LaneContent content;       ///< every member's stalls together (no packets: the density strip)
    std::array<uint32_t, kPopulationStateCount> peaks{};  ///< most members at once in each state
};

/// An extra lane with its events indexed for folding.
struct ExtraLane {
    TimelineLane lane;
    MarkTrack events;  ///< item = position in lane.events (all but waits)
    MarkTrack waits;   ///< the waits (EventKind::Wait), item = position in lane.events
};

enum class RowKind : uint8_t { CaptureFindings, Population, GroupHeader, Connection, Extra };

/// One lane as laid out from top to bottom.
struct LaneRow {
    RowKind kind = RowKind::Connection;
    uint32_t index = 0;  ///< connection id, group index, extra lane index or PopulationRow (0 for capture findings)
    double topPx = 0;
    double heightPx = 0;
};

/// Row heights in pixels, from the font.
struct RowHeights {
    double lanePx = 38;   ///< connection lanes and group headers: a label band and a packet band
    double extraPx = 24;  ///< extra lanes
    double populationPx = 34;  ///< capture-wide population rows
    double groupPx = 46;       ///< group headers: a label band over a density strip
};

/// What a build of the lanes makes, never changed afterwards: the models of one build share it.
struct TimelineLanes {
    std::vector<ConnectionLane> connections;  ///< indexed by connection id
    std::vector<uint32_t> order;              ///< connection ids by first packet time
    std::vector<StallSpan> spans;             ///< every finding's stall spans, in finding order
    LaneContent captureFindings;              ///< spans of findings of no single connection
};

/// The groups of one grouping of a build's lanes, never changed afterwards (which are folded is
/// each model's own).
struct LaneGroups {
    std::vector<LaneGroup> groups;
    std::vector<uint32_t> members;  ///< each group's connections in turn, in order of their first packet
    std::vector<uint32_t> groupOf;  ///< per connection id: its group
};

/// The timeline's content, built once per results snapshot: lanes with time-sorted, summarised
/// packet marks and stall spans; then grouped and laid out in rows. No Qt, no painting.
/// The lanes, their packet marks and a grouping are shared, never copied: by the lanes-only and
/// complete models of one build (TimelineModelBuilder::lanes), and by the views of one build
/// (sharedCopy: the Timeline tab and the Charts tab's picture). What each model holds of its own is
/// small: which groups are folded, its extra lanes and its rows.
class TimelineModel {
public:
    TimelineModel();
    TimelineModel(TimelineModel&&) = default;
    TimelineModel& operator=(TimelineModel&&) = default;
    TimelineModel& operator=(const TimelineModel&) = delete;
    ~TimelineModel() = default;

    /// Lanes of every connection. A complete snapshot gives packets; a partial one gives the
    /// connections' first and last times and the findings so far.
    static TimelineModel fromResults(const AnalysisResults& results);

    /// First to last packet of the capture (the origin of relative times).
    [[nodiscard]] TimeRange captureRange() const { return capture_; }
    /// The capture and every extra lane's events: what "show everything" shows.
    [[nodiscard]] TimeRange bounds() const { return bounds_; }
    [[nodiscard]] bool hasPackets() const { return packets_ > 0; }
    [[nodiscard]] size_t packetCount() const { return packets_; }
    /// A model of the same lanes, packets and grouping (shared), with copies of this one's folds,
    /// extra lanes and rows, to change as its own.
    [[nodiscard]] TimelineModel sharedCopy() const { return *this; }
    /// Whether `other` shares this model's lanes (a model of the same build).
    [[nodiscard]] bool sharesLanesWith(const TimelineModel& other) const { return lanes_ == other.lanes_; }

    [[nodiscard]] const std::vector<ConnectionLane>& connections() const { return lanes_->connections; }
    /// Connection `id`'s packets sent to the server (or, `fromServer`, to the client); empty
    /// before the packets are in.
    [[nodiscard]] MarkTrack packets(uint32_t id, bool fromServer) const;
    /// The lane of connection `id`, or null.
    [[nodiscard]] const ConnectionLane* connection(uint32_t id) const;
    [[nodiscard]] const std::vector<LaneGroup>& groups() const { return groups_->groups; }
    /// The connections of group `group`, in order of their first packet.
    [[nodiscard]] std::span<const uint32_t> groupMembers(size_t group) const;
    /// "client 10.0.0.1", "server 10.0.0.2:80", "10.0.0.1 → 10.0.0.2:80"
    [[nodiscard]] std::string groupLabel(size_t group) const;
    /// "150 connections · 100 in TIME_WAIT": how many, and the one peak that tells most.
    [[nodiscard]] std::string groupDetail(size_t group) const;
    [[nodiscard]] bool groupCollapsed(size_t group) const { return group < collapsed_.size() && collapsed_[group]; }
    [[nodiscard]] const std::vector<ExtraLane>& extraLanes() const { return extraLanes_; }
    /// Spans of findings that concern no single connection (port exhaustion, TIME_WAIT churn).
    [[nodiscard]] const LaneContent& captureFindings() const { return lanes_->captureFindings; }
    /// The capture-wide population (connection rate, TIME_WAIT, ports), or null: few connections,
    /// or no packet index to read.
    [[nodiscard]] const CapturePopulation* population() const { return population_.get(); }
    /// The capture-wide rows shown: in a grouped view, those with something to draw (the busiest
    /// host's TIME_WAIT and ports in use, then a ports-in-use row per other host charted, and the
    /// handshakes waiting when two or more waited at once).
    [[nodiscard]] std::vector<PopulationRowKey> populationRows() const;
    /// The stalls of a lane as disjoint stretches (overlapping spans merged, instants left out).
    static std::vector<StallStretch> stallStretches(const LaneContent& content);
    /// Every stall span, in finding order.
    [[nodiscard]] const std::vector<StallSpan>& spans() const { return lanes_->spans; }
    /// Causes that have at least one span, for the legend.
    [[nodiscard]] std::vector<StallGroup> causesPresent() const;
    /// From the start of the first span of finding `id` to the end of its last, if it has any.
    [[nodiscard]] std::optional<TimeRange> findingRange(uint32_t id) const;
    /// The connection lane a finding is drawn on (its first span's), or kNoConnection.
    [[nodiscard]] uint32_t findingConnection(uint32_t id) const;
    /// Every connection lane a finding has a span on, in span order, each once.
    [[nodiscard]] std::vector<uint32_t> findingConnections(uint32_t id) const;

    void setGrouping(LaneGrouping grouping);
    /// The grouping of `other`, a model of the same build, shared instead of made again (its
    /// groups unfolded); false, and nothing changed, when `other` has other lanes.
    bool setGroupingAs(const TimelineModel& other);
    [[nodiscard]] LaneGrouping grouping() const { return grouping_; }
    void setGroupCollapsed(size_t group, bool collapsed);
    /// Folds the groups as those of `other` when it holds the same groups (a model of the same
    /// results built again); false, and nothing changed, otherwise.
    bool foldGroupsAs(const TimelineModel& other);
    /// Folds the groups of more than kFoldedGroupConnections connections, unfolds the others.
    void foldLargeGroups();
    /// Folds (or unfolds) every group, laying the rows out once.
    void setAllGroupsCollapsed(bool collapsed);
    /// Group of connection `id` in the current grouping, or nullopt (ungrouped).
    [[nodiscard]] std::optional<size_t> groupOfConnection(uint32_t id) const;

    /// Replaces the extra lanes (system calls, ...). Their events widen the time range.
    void setExtraLanes(std::vector<TimelineLane> lanes);

    void setRowHeights(RowHeights heights);
    [[nodiscard]] const RowHeights& rowHeights() const { return heights_; }
    [[nodiscard]] const std::vector<LaneRow>& rows() const { return rows_; }
    /// True when some row is a group's header (its density strip is shown, and the legend names it).
    [[nodiscard]] bool hasGroupHeaders() const { return hasGroupHeaders_; }
    [[nodiscard]] double totalHeightPx() const {
        return rows_.empty() ? 0 : rows_.back().topPx + rows_.back().heightPx;
    }
    /// The row under `yPx` (0 = top of the first row), or nullopt.
    [[nodiscard]] std::optional<size_t> rowAt(double yPx) const;
    /// The header row of group `group` (nullopt if it has none: a population of one).
    [[nodiscard]] std::optional<size_t> rowOfGroup(size_t group) const;
    /// The row of connection `id` (nullopt if hidden in a collapsed group or unknown).
    [[nodiscard]] std::optional<size_t> rowOfConnection(uint32_t id) const;
    /// Bytes held by the packet and event marks and their summaries.
    [[nodiscard]] size_t markMemoryBytes() const;

private:
    friend class TimelineModelBuilder;
    // Copies share the lanes, the grouping and the mark stores, which are never changed once built
    // (only replaced).
    TimelineModel(const TimelineModel&) = default;
    void layoutRows();
    // The rows of connection lanes and group headers the grouping and folds give.
    [[nodiscard]] size_t laneRowCount() const;
    // Whether group `group` is shown as its one connection's lane, without a header (a population of one).
    [[nodiscard]] bool laneAlone(size_t group) const;
    // The peaks of `group`, whose members are `members`.
    void measureGroup(LaneGroup& group, std::span<const uint32_t> members) const;

    TimeRange capture_;
    TimeRange bounds_;
    size_t packets_ = 0;
    std::shared_ptr<const TimelineLanes> lanes_;
    std::shared_ptr<const CapturePopulation> population_;
    std::shared_ptr<const LaneGroups> groups_;
    std::vector<bool> collapsed_;  // per group: folded in this model
    std::vector<ExtraLane> extraLanes_;
    std::shared_ptr<const MarkStore> packetMarks_;  // track 2c: connection c to the server, 2c+1: to the client
    std::shared_ptr<const MarkStore> extraMarks_;   // one track per extra lane
    LaneGrouping grouping_ = LaneGrouping::Connection;
    RowHeights heights_;
    std::vector<LaneRow> rows_;
    bool hasGroupHeaders_ = false;
};

/// The TIME_WAIT of the detectors' defaults (Linux: 60 s), in nanoseconds.
inline const int64_t kDefaultTimeWaitNs = static_cast<int64_t>(DetectorOptions{}.timeWaitSeconds * 1e9);

/// Feeds a model from parts: connections, findings, then every packet in capture order.
/// fromResults() uses it; the benchmark and tests build synthetic captures with it.
class TimelineModelBuilder {
public:
    /// The density strips count a TIME_WAIT `timeWaitNs` long (ended sooner by an accepted reuse of its tuple).
    TimelineModelBuilder(const ConnectionStore& connections, const FindingList& findings, TimeRange capture,
                         int64_t timeWaitNs = kDefaultTimeWaitNs);
    /// The lanes of the connections and findings of `results`, over its capture's time, with the
    /// TIME_WAIT length its detectors judged with (AnalysisResults::detectorOptions).
    explicit TimelineModelBuilder(const AnalysisResults& results);
    /// What finish() would give had no packet been added: the lanes with their stalls, laid out.
    /// Before any addPacket(); the builder goes on afterwards (a large capture shows its lanes first,
    /// then the same lanes with their packets: finish() shares them, without building them twice).
    [[nodiscard]] TimelineModel lanes();
    /// The capture-wide population rows' series of `results` (a pass over its packet index).
    void addPopulation(const AnalysisResults& results);
    /// Adds every packet of the packet index of `results` (none for partial results).
    void addPackets(const AnalysisResults& results);
    /// Optional: room for `packets` packets.
    void reservePackets(size_t packets);
    /// The packet at `packetIndex` of the packet index. Packets of an unknown connection are ignored.
    void addPacket(size_t packetIndex, int64_t tsNs, uint32_t connection, bool fromServer, AnalysisFlags analysis,
                   uint8_t tcpFlags, bool hasPayload);
    /// Builds the summaries and lays out the rows.
    TimelineModel finish();

private:
    // The lanes with their stalls sorted, shared from now on.
    const std::shared_ptr<const TimelineLanes>& sealedLanes();

    TimelineModel model_;  // the capture's range, population and packet count
    TimelineLanes lanes_;  // until sealed
    std::shared_ptr<const TimelineLanes> sealed_;
    size_t connections_ = 0;
    MarkStoreBuilder packets_;
};

}  // namespace tcpscope::ui
