#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "views/timeline_axis.hpp"

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

/// One row of time-sorted marks (packets of one direction of a connection, or events of a
/// syscall lane) with per-zoom summaries: counts in buckets of 2^shift ns for a few shifts,
/// kept only where they at least halve the entries of the finer level, so the summaries never
/// hold more than the marks themselves. A zoomed-out fold reads the coarsest summary whose
/// buckets are under a pixel, so its cost follows the width in pixels, not the mark count.
class MarkTrack {
public:
    static constexpr int kFirstShift = 10;  ///< 1.024 µs buckets
    static constexpr int kShiftStep = 2;    ///< each level is 4x coarser
    static constexpr int kLastShift = 50;   ///< about 13 days

    void reserve(size_t marks);
    /// Adds a mark; `endNs` > `tsNs` for marks with a duration. Call finish() after the last one.
    void append(int64_t tsNs, uint32_t item, uint16_t style, int64_t endNs = INT64_MIN);
    /// Sorts by time if the marks came out of order, then builds the summaries.
    void finish();

    [[nodiscard]] size_t size() const { return tsNs_.size(); }
    [[nodiscard]] bool empty() const { return tsNs_.empty(); }
    [[nodiscard]] int64_t tsNs(size_t mark) const { return tsNs_[mark]; }
    [[nodiscard]] uint32_t item(size_t mark) const { return item_[mark]; }
    [[nodiscard]] uint16_t style(size_t mark) const { return style_[mark]; }
    /// End of a mark with a duration (its start for an instant).
    [[nodiscard]] int64_t endNs(size_t mark) const { return endNs_.empty() ? tsNs_[mark] : endNs_[mark]; }
    [[nodiscard]] bool hasDurations() const { return !endNs_.empty(); }
    /// Bucket shifts of the summaries kept, finest first.
    [[nodiscard]] std::vector<int> levelShifts() const;
    /// Entries held by the summaries (bounded by size()).
    [[nodiscard]] size_t summaryEntries() const;

    /// Appends to `out` the marks shown between x = fromPx and x = toPx, folding those that start
    /// within `foldPx` of a group's first mark into that group. Groups come out in time order.
    FoldStats fold(const TimeAxis& axis, double fromPx, double toPx, double foldPx, std::vector<FoldedMark>& out) const;

private:
    // A summary: the non-empty buckets of one width, each with its first mark's time.
    struct Level {
        int shift = 0;
        std::vector<int64_t> firstTsNs;
        std::vector<uint32_t> count;
        std::vector<uint16_t> style;
        std::vector<uint32_t> firstMark;   // index of the bucket's first mark
        std::vector<int64_t> maxEndNs;     // latest end in the bucket (tracks with durations only)
        std::vector<int64_t> prefixEndNs;  // running maximum of maxEndNs, for the first visible bucket
    };

    template <typename Source>
    FoldStats foldFrom(const Source& source, const TimeAxis& axis, double fromPx, double toPx, double foldPx,
                       std::vector<FoldedMark>& out) const;
    [[nodiscard]] Level coarsen(const Level& finer, int shift) const;
    [[nodiscard]] Level firstLevel(int shift) const;

    std::vector<int64_t> tsNs_;
    std::vector<uint32_t> item_;  // packet indices fit: 2^32 packets would need 160 GiB of index
    std::vector<uint16_t> style_;
    std::vector<int64_t> endNs_;        // only when some mark has a duration
    std::vector<int64_t> prefixEndNs_;  // running maximum of endNs_
    std::vector<Level> levels_;
};

}  // namespace tcpscope::ui
