#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capture/bpf_filter.hpp"
#include "capture/raw_packet.hpp"
#include "capture/time_origin.hpp"
#include "decode/decoded_packet.hpp"
#include "engine/connection_processes.hpp"
#include "engine/duplicate_frames.hpp"
#include "engine/segment_observer.hpp"
#include "tcp/packet_index.hpp"
#include "tcp/tcp_tracker.hpp"

namespace tcpscope {

/// When a live capture retires a connection, so that memory stays bounded on a capture of hours:
/// its sequence state and the detectors' per-connection state are released, its Connection record
/// stays for the report, and a later segment of its tuple opens a new connection (not linked to it
/// as a new generation: port reuse is seen within the retirement age only). Ages are in capture
/// time (packet timestamps) since the connection's last packet.
struct ConnectionRetirement {
    bool enabled = false;                     ///< off for files: every connection stays live to the end
    int64_t closedAgeNs = 120'000'000'000;    ///< closed (FINs or RST): past TIME_WAIT (60 s) with a margin
    int64_t idleAgeNs = 3600'000'000'000;     ///< any other connection with no packet for this long (it may resume:
                                              ///< its next packets then open a new, midstream connection)
};

/// Settings of one analysis run.
struct EngineOptions {
    std::string filter;  ///< tcpdump filter expression; empty = every frame
    /// Keep the packet index (packets()): what the views, the packet listings, diagrams and strace
    /// alignment read. Off when only the connections and findings are wanted (the CLI's analyze and
    /// flows without strace logs): then packets() stays empty, which saves about 30 B a packet.
    bool keepPacketIndex = true;
    PacketIndexSpill indexSpill;  ///< where the packet index may move its older chunks (live captures)
    ConnectionRetirement retirement;
};

/// Counts of what the frames were, for the capture summary.
struct FrameCounters {
    uint64_t frames = 0;           ///< all frames read (before the filter)
    uint64_t filteredOut = 0;      ///< rejected by the filter expression
    uint64_t tcp = 0;              ///< TCP segments analysed
    uint64_t sizeLimited = 0;      ///< TCP segments cut by the snapshot length (still analysed)
    uint64_t notTcp = 0;           ///< frames that are not TCP segments (ICMP "too big" messages among them)
    uint64_t packetTooBig = 0;     ///< ICMP and ICMPv6 "too big" messages about TCP segments (path MTU)
    uint64_t fragments = 0;        ///< non-first IP fragments, not parsed as TCP
    uint64_t malformed = 0;
    uint64_t truncated = 0;
    uint64_t unsupportedLink = 0;
    uint64_t duplicates = 0;       ///< TCP segments the capture holds twice (DuplicateFrames): left out of the analysis
    uint64_t timeBackwards = 0;    ///< frames 1 ms or more before the frame before them
    int64_t largestBackwardNs = 0; ///< the largest of those steps back
    std::map<uint32_t, uint64_t> framesByLinkType;
};

/// One frame after the part of the analysis that needs its bytes (decoding), ready for the
/// in-order part. Made by AnalysisEngine::decode (any thread) and numbered by numberTuples or
/// trackRun (a reading thread decodes and numbers while another analyses), applied with
/// AnalysisEngine::pushPrepared or trackRun and notify.
struct PreparedFrame {
    int64_t tsNs = 0;
    uint64_t recordOffset = 0;
    uint32_t linkType = 0;
    uint32_t fileIndex = 0;
    DecodeStatus status = DecodeStatus::NotTcp;
    TcpSegment segment;   ///< valid when status is Tcp (PacketTooBig, Unreachable: the segment the message quotes)
    PacketTooBig tooBig;  ///< valid when status is PacketTooBig
    DestinationUnreachable unreachable;  ///< valid when status is Unreachable
    TupleRef tuple;       ///< the segment's tuple, numbered when status is Tcp
    std::string comment;  ///< pcapng packet comment, usually empty
    const PacketProcess* process = nullptr;  ///< RawPacket::process (owned by the reader)
    PacketDirection direction = PacketDirection::Unknown;
};

/// A pcapng packet comment (opt_comment) and where its frame is.
struct PacketComment {
    uint32_t frame = 0;
    int64_t tsNs = 0;
    uint32_t fileIndex = 0;  ///< the input file the frame came from
    std::string text;

    bool operator==(const PacketComment&) const = default;
};

/// What the in-order part of the analysis (AnalysisEngine::trackRun) made of one prepared frame, kept
/// for the observers when another thread calls them later (AnalysisEngine::notify).
struct TrackedFrame {
    ConnectionSnapshot connection;  ///< of the segment's connection after this segment was applied (the
                                    ///< engine's record goes on changing while the observers catch up)
    uint32_t frame = 0;
    AnalysisFlags analysis = 0;
    Side sender = Side::Client;
    bool isTcp = false;  ///< false: a frame that was only counted (or a "too big" message, see its status)
};

/// The incremental analysis: frames are pushed one at a time, in capture order, and every
/// result (connections, packet index, counters) can be read between two pushes. The file
/// loader and the live capture feed it the same way.
class AnalysisEngine {
public:
    /// Throws BpfFilterError if the filter expression is invalid.
    explicit AnalysisEngine(const EngineOptions& options = {});

    /// Adds an observer that sees every analysed segment; it must outlive the engine's use.
    void addObserver(SegmentObserver* observer);
    /// Analyses one frame from input file `fileIndex`. Frames are numbered 1, 2, ... in push order.
    void push(const RawPacket& packet, uint32_t fileIndex);
    /// Decodes `packet` into `frame`, without numbering its 4-tuple yet: a run of decoded frames is
    /// then numbered by numberTuples() or by trackRun(). Only for engines without a filter
    /// expression (the filter needs the frame's bytes in push()).
    void decode(const RawPacket& packet, uint32_t fileIndex, PreparedFrame& frame) const;
    /// Numbers the 4-tuples of decoded frames, in order, asking for each one's hash-table slot a
    /// few frames ahead so that their cache misses overlap. It touches only the engine's tuple
    /// numbering, so one other thread may number frames while this engine's thread calls
    /// pushPrepared() (never push() meanwhile).
    void numberTuples(std::span<PreparedFrame> frames);
    /// Analyses a frame made by decode() and numberTuples(), in the order read, exactly as push()
    /// would have analysed the packet.
    void pushPrepared(const PreparedFrame& frame);
    /// The first half of pushPrepared() for a run of decoded frames: numbers their tuples, counts
    /// each frame, tracks its connection and appends it to the packet index, and keeps in
    /// `tracked[i]` what the observers are to see of `frames[i]`, without calling them; each frame's
    /// connection record is asked for a few frames ahead. notify() is the second half, so that one
    /// thread may track frames (in order) while another notifies the observers of the frames already
    /// tracked (in the same order, handed over with a happens-before, e.g. through a mutex).
    /// Meanwhile the observers may read of the engine only what tracking no longer changes: see
    /// SegmentObserver. Not for engines that retire connections (retiring calls the observers in
    /// the middle of tracking): throws std::logic_error.
    void trackRun(std::span<PreparedFrame> frames, std::span<TrackedFrame> tracked);
    /// Hands the segment of a frame made by trackRun() to the observers, as pushPrepared() would have.
    void notify(const PreparedFrame& prepared, const TrackedFrame& tracked);
    /// True if the engine retires connections (ConnectionRetirement): then trackRun() is not allowed.
    [[nodiscard]] bool retiresConnections() const { return options_.retirement.enabled; }
    /// True if the engine has a filter expression (then frames must go through push()).
    [[nodiscard]] bool hasFilter() const { return filter_.has_value(); }
    /// Detaches every observer (before they are destroyed).
    void clearObservers() { observers_.clear(); }
    /// Tells observers that the input has ended.
    void finish();
    /// Once the last frame is in: frees what only the analysis of further frames needs (the
    /// connections' sequence states and the tuple numbering; connectionBytes() then counts the
    /// records alone). Called before finish(), the observers' ends and the findings' descriptions
    /// reuse that memory (W1 at 100 M packets: the tuple numbering is about 350 MB). No frame may
    /// be pushed after.
    void releaseTracking() {
        tuples_ = {};
        tracker_.endInput();
    }
    /// Tells observers that capture time has reached `nowNs` with no packet since (a live capture's
    /// clock: the last packet's time plus the time elapsed since it was captured). Monotonic: a time
    /// before the last one given or before the last packet is raised to that. Returns the time passed on.
    int64_t advanceClock(int64_t nowNs);
    /// The capture clock: the latest of the last packet's time and the last advanceClock().
    [[nodiscard]] int64_t clockNs() const { return std::max(clockNs_, lastTsNs_); }

    [[nodiscard]] const ConnectionStore& connections() const { return tracker_.table().connections(); }
    /// Connections retired so far (see ConnectionRetirement), and those not retired.
    [[nodiscard]] size_t retiredConnections() const { return retired_; }
    [[nodiscard]] size_t liveConnections() const { return connections().size() - retired_; }
    /// Bytes held by the connection records and the live connections' sequence states.
    [[nodiscard]] size_t connectionBytes() const { return tracker_.table().bytesHeld(); }
    /// Connections holding a sequence state (see ConnectionTable::sequenceStatesHeld).
    [[nodiscard]] size_t sequenceStatesHeld() const { return tracker_.table().sequenceStatesHeld(); }
    [[nodiscard]] const PacketIndex& packets() const { return packets_; }
    [[nodiscard]] const FrameCounters& counters() const { return counters_; }
    /// The first frames (up to kListedQualityFrames) left out as copies, and where time went back.
    [[nodiscard]] const std::vector<uint32_t>& duplicateFrames() const { return duplicateFrames_; }
    [[nodiscard]] const std::vector<uint32_t>& backwardFrames() const { return backwardFrames_; }
    static constexpr size_t kListedQualityFrames = 100;
    /// What every time of the engine (packets, connections, findings) counts from: the epoch but
    /// for captures far in the past or future (TimeOrigin). Set by the loader before the first push.
    [[nodiscard]] TimeOrigin timeOrigin() const { return timeOrigin_; }
    void setTimeOrigin(TimeOrigin origin) { timeOrigin_ = origin; }
    /// Capture time of the first and last frame pushed (0 before any).
    [[nodiscard]] int64_t firstTsNs() const { return firstTsNs_; }
    [[nodiscard]] int64_t lastTsNs() const { return lastTsNs_; }
    [[nodiscard]] const std::string& filterExpression() const { return options_.filter; }
    /// Warnings from the filter (link types it does not apply to).
    [[nodiscard]] std::vector<std::string> filterWarnings() const;
    /// Packet comments of pcapng files, in frame order (kept with or without the packet index).
    [[nodiscard]] const std::vector<PacketComment>& packetComments() const { return comments_; }
    /// The comment of `frame`, or an empty view.
    [[nodiscard]] std::string_view commentOf(uint32_t frame) const;
    /// The processes of the connections' ends, where the capture files name their packets' processes.
    [[nodiscard]] const ConnectionProcesses& processes() const { return processes_; }

private:
    // The bookkeeping of every frame pushed; returns its frame number.
    uint32_t countFrame(int64_t tsNs, uint32_t linkType, uint32_t fileIndex, std::string_view comment);
    // Counts a decoded frame and, for a TCP segment, tracks it and appends it to the packet index if
    // one is kept (the part of the analysis before the observers). False if the frame is not a TCP segment.
    bool trackSegment(DecodeStatus status, const TcpSegment& segment, const TupleRef& tuple, int64_t tsNs,
                      uint64_t recordOffset, uint32_t fileIndex, uint32_t frame, TrackedSegment& tracked);
    // The analysis of a decoded frame.
    void analyse(DecodeStatus status, const TcpSegment& segment, const TupleRef& tuple, int64_t tsNs,
                 uint64_t recordOffset, uint32_t fileIndex, uint32_t frame, const PacketProcess* process,
                 PacketDirection direction);
    // Gives a tracked segment's process to the end it belongs to: the sender of an outbound packet,
    // the receiver of an inbound one (a packet of unknown direction names no end).
    void noteProcess(const TrackedSegment& tracked, const PacketProcess* process, PacketDirection direction) {
        if (process != nullptr && direction != PacketDirection::Unknown) {
            processes_.note(tracked.connection->id,
                            direction == PacketDirection::Outbound ? tracked.sender : otherSide(tracked.sender),
                            process);
        }
    }
    // Hands a "too big" message (quoting `quoted`) to the observers.
    void tellPacketTooBig(const TcpSegment& quoted, const PacketTooBig& message, uint32_t frame, int64_t tsNs);
    // Hands an ICMP message about a TCP segment (PacketTooBig, Unreachable) of a frame to the observers.
    void tellIcmp(DecodeStatus status, const TcpSegment& quoted, const PacketTooBig& tooBig,
                  const DestinationUnreachable& unreachable, uint32_t frame, int64_t tsNs);
    // Retires the live connections past their age at capture time `nowNs`.
    void retireAged(int64_t nowNs);

    EngineOptions options_;
    std::optional<BpfFilter> filter_;
    TupleNumbering tuples_;  // used by the thread that numbers tuples (push(), numberTuples() or trackRun())
    TcpTracker tracker_;
    PacketIndex packets_;
    FrameCounters counters_;
    DuplicateFrames duplicates_;
    std::vector<uint32_t> duplicateFrames_;
    std::vector<uint32_t> backwardFrames_;
    std::vector<SegmentObserver*> observers_;
    std::vector<PacketComment> comments_;
    ConnectionProcesses processes_;
    TimeOrigin timeOrigin_;
    int64_t firstTsNs_ = 0;
    int64_t lastTsNs_ = 0;
    int64_t clockNs_ = 0;  // the last advanceClock()
    std::vector<uint32_t> live_;  // ids of the connections not retired, when retirement is enabled
    size_t retired_ = 0;
    bool concurrentReads_ = false;  // trackRun() has made the connection store readable by another thread
    int64_t nextRetirementNs_ = INT64_MIN;
    uint32_t nextFrame_ = 1;
    uint32_t countedLinkType_ = 0;
    uint64_t* linkTypeCount_ = nullptr;  // into counters_.framesByLinkType (std::map nodes do not move)
};

}  // namespace tcpscope
