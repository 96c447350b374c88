#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "timeline/timeline_axis.hpp"
#include "views/event_kind.hpp"

namespace tcpscope::ui {

/// What a mark is, as bits (a folded mark ORs the bits of what it holds).
namespace markstyle {
inline constexpr uint16_t kFromServer = 1u << 0;      ///< server to client (else client to server)
inline constexpr uint16_t kPayload = 1u << 1;         ///< carries data
inline constexpr uint16_t kRetransmission = 1u << 2;  ///< retransmission, fast or spurious
inline constexpr uint16_t kZeroWindow = 1u << 3;      ///< zero window, its probes, window full
inline constexpr uint16_t kAnomaly = 1u << 4;         ///< duplicate ACK, out of order, lost segment
inline constexpr uint16_t kSyn = 1u << 5;
inline constexpr uint16_t kFin = 1u << 6;
inline constexpr uint16_t kReset = 1u << 7;
inline constexpr uint16_t kFlagged = kRetransmission | kZeroWindow | kAnomaly | kReset;
}  // namespace markstyle

/// The style bits of an extra lane's event: one bit per EventKind (a folded mark ORs them).
constexpr uint16_t eventStyle(EventKind kind) {
    return static_cast<uint16_t>(1u << static_cast<unsigned>(kind));
}

/// Marks that are close on screen, drawn as one: a single mark when `count` is 1 (then `item`
/// is exact), else a band from x to x2 holding `count` marks.
struct FoldedMark {
    double x = 0;
    double x2 = 0;  ///< right end (x for a single instant)
    uint32_t count = 0;
    uint16_t style = 0;  ///< OR of the marks' styles
    uint64_t item = 0;   ///< caller's id of the first mark (packet index, event index)
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;  ///< start of the last mark folded in
};

/// What a fold looked at, to prove a zoomed-out frame does not visit every mark.
struct FoldStats {
    size_t entriesVisited = 0;
    int levelShift = -1;  ///< bucket width 2^shift ns of the summary used; -1: the marks themselves
};

class MarkStore;

/// One row of time-sorted marks (the packets of one direction of a connection, the events of a
/// syscall lane) with per-zoom summaries, read from a MarkStore. Cheap to copy; valid while its
/// store lives. A default-constructed track is empty.
class MarkTrack {
public:
    MarkTrack() = default;

    [[nodiscard]] size_t size() const;
    [[nodiscard]] bool empty() const { return size() == 0; }
    [[nodiscard]] int64_t tsNs(size_t mark) const;
    [[nodiscard]] uint32_t item(size_t mark) const;
    [[nodiscard]] uint16_t style(size_t mark) const;
    /// End of a mark with a duration (its start for an instant).
    [[nodiscard]] int64_t endNs(size_t mark) const;
    /// Bucket shifts of the summaries kept, finest first.
    [[nodiscard]] std::vector<int> levelShifts() const;
    /// Entries held by the summaries (never more than size()).
    [[nodiscard]] size_t summaryEntries() const;

    /// Appends to `out` the marks shown between x = fromPx and x = toPx, folding those that start
    /// within `foldPx` of a group's first mark into that group. Groups come out in time order.
    /// Zoomed out, reads the coarsest summary whose buckets fit in a pixel, so its cost follows
    /// the width in pixels, not the number of marks.
    FoldStats fold(const TimeAxis& axis, double fromPx, double toPx, double foldPx, std::vector<FoldedMark>& out) const;

private:
    friend class MarkStore;
    MarkTrack(const MarkStore* store, uint32_t index) : store_(store), index_(index) {}

    const MarkStore* store_ = nullptr;
    uint32_t index_ = 0;
};

/// The marks of many tracks in shared columns (a few allocations for a whole capture rather
/// than several per connection), sorted by track then time, with each track's summaries:
/// counts in buckets of 2^shift ns for a few shifts, kept only where they at least halve the
/// entries of the finer level, so that all summaries together never outnumber the marks.
class MarkStore {
public:
    static constexpr int kFirstShift = 10;            ///< 1.024 µs buckets
    static constexpr int kShiftStep = 2;              ///< each level is 4x coarser
    static constexpr int kLastShift = 50;             ///< about 13 days
    static constexpr size_t kMinMarksForLevels = 64;  ///< fewer marks are read directly

    [[nodiscard]] MarkTrack track(uint32_t index) const { return {this, index}; }
    [[nodiscard]] size_t trackCount() const { return tracks_.size(); }
    [[nodiscard]] size_t size() const { return tsNs_.size(); }
    /// Bytes held by the columns, for the memory budget.
    [[nodiscard]] size_t memoryBytes() const;

private:
    friend class MarkTrack;
    friend class MarkStoreBuilder;

    struct TrackRange {
        size_t firstMark = 0;
        size_t marks = 0;
        uint32_t firstLevel = 0;
        uint32_t levels = 0;
    };
    struct LevelRange {
        int shift = 0;
        size_t firstEntry = 0;
        size_t entries = 0;
    };
    // A summary being built: the non-empty buckets of one width.
    struct Level {
        int shift = 0;
        std::vector<int64_t> firstTsNs;
        std::vector<uint32_t> count;
        std::vector<uint16_t> style;
        std::vector<uint32_t> firstMark;  // relative to the track's first mark
        std::vector<int64_t> maxEndNs;    // with durations only

        void clear();
    };

    void buildLevels(uint32_t track, Level& current, Level& next);
    void firstLevel(const TrackRange& range, int shift, Level& level) const;
    void coarsen(const Level& finer, int shift, Level& level) const;
    void keep(const Level& level);
    [[nodiscard]] bool hasDurations() const { return !endNs_.empty(); }

    std::vector<int64_t> tsNs_;
    std::vector<uint32_t> item_;  // packet indices fit: 2^32 packets would need 160 GiB of index
    std::vector<uint16_t> style_;
    std::vector<int64_t> endNs_;        // only when some mark has a duration
    std::vector<int64_t> prefixEndNs_;  // running maximum of endNs_ within each track
    std::vector<TrackRange> tracks_;
    std::vector<LevelRange> levels_;
    std::vector<int64_t> levelTsNs_;
    std::vector<uint32_t> levelCount_;
    std::vector<uint16_t> levelStyle_;
    std::vector<uint32_t> levelFirstMark_;
    std::vector<int64_t> levelMaxEndNs_;
    std::vector<int64_t> levelPrefixEndNs_;
};

/// Collects marks for the tracks of a store in any order (packets arrive interleaved across
/// connections), then sorts them into place and builds the summaries.
class MarkStoreBuilder {
public:
    explicit MarkStoreBuilder(uint32_t tracks);
    void reserve(size_t marks) { pending_.reserve(marks); }
    /// Before any append: exactly `counts[track]` marks will come for each track. They are then put
    /// in their place as they come instead of collected first, which takes 24 bytes a mark more
    /// until finish(). Throws std::logic_error when a track gets more than its count.
    void expect(const std::vector<uint32_t>& counts);
    /// Adds a mark to `track` (< tracks); `endNs` > `tsNs` for marks with a duration.
    void append(uint32_t track, int64_t tsNs, uint32_t item, uint16_t style, int64_t endNs = INT64_MIN);
    [[nodiscard]] std::unique_ptr<MarkStore> finish();

private:
    // Sorts each track's marks by time (stable), its running end, its summaries.
    void sortAndSummarise(MarkStore& store) const;

    struct Pending {
        int64_t tsNs;
        uint32_t track;
        uint32_t item;
        uint16_t style;
    };
    uint32_t tracks_;
    std::vector<Pending> pending_;
    std::vector<int64_t> pendingEndNs_;  // filled once a mark has a duration
    // Counted marks (expect): placed in `placed_`'s columns, each track's next place in `next_`.
    std::unique_ptr<MarkStore> placed_;
    std::vector<size_t> next_;
};

}  // namespace tcpscope::ui
