#include "views/timeline_track.hpp"

#include <algorithm>
#include <numeric>

namespace tcpscope::ui {

namespace {

// The marks themselves, read through the same accessors as a summary.
struct RawSource {
    const std::vector<int64_t>& tsNs;
    const std::vector<uint16_t>& style;
    const std::vector<int64_t>& endNs;
    const std::vector<int64_t>& prefixEndNs;

    [[nodiscard]] size_t size() const { return tsNs.size(); }
    [[nodiscard]] int64_t ts(size_t i) const { return tsNs[i]; }
    [[nodiscard]] int64_t end(size_t i) const { return endNs.empty() ? tsNs[i] : endNs[i]; }
    [[nodiscard]] uint32_t count(size_t /*i*/) const { return 1; }
    [[nodiscard]] uint16_t styleOf(size_t i) const { return style[i]; }
    [[nodiscard]] size_t firstMark(size_t i) const { return i; }
    [[nodiscard]] const std::vector<int64_t>& prefixEnd() const { return prefixEndNs; }
    [[nodiscard]] const std::vector<int64_t>& starts() const { return tsNs; }
};

template <typename LevelType>
struct LevelSource {
    const LevelType& level;

    [[nodiscard]] size_t size() const { return level.firstTsNs.size(); }
    [[nodiscard]] int64_t ts(size_t i) const { return level.firstTsNs[i]; }
    [[nodiscard]] int64_t end(size_t i) const {
        return level.maxEndNs.empty() ? level.firstTsNs[i] : level.maxEndNs[i];
    }
    [[nodiscard]] uint32_t count(size_t i) const { return level.count[i]; }
    [[nodiscard]] uint16_t styleOf(size_t i) const { return level.style[i]; }
    [[nodiscard]] size_t firstMark(size_t i) const { return level.firstMark[i]; }
    [[nodiscard]] const std::vector<int64_t>& prefixEnd() const { return level.prefixEndNs; }
    [[nodiscard]] const std::vector<int64_t>& starts() const { return level.firstTsNs; }
};

std::vector<int64_t> runningMax(const std::vector<int64_t>& values) {
    std::vector<int64_t> result(values.size());
    int64_t running = INT64_MIN;
    for (size_t i = 0; i < values.size(); ++i) {
        running = std::max(running, values[i]);
        result[i] = running;
    }
    return result;
}

}  // namespace

void MarkTrack::reserve(size_t marks) {
    tsNs_.reserve(marks);
    item_.reserve(marks);
    style_.reserve(marks);
}

void MarkTrack::append(int64_t tsNs, uint32_t item, uint16_t style, int64_t endNs) {
    if (endNs > tsNs && endNs_.empty()) {
        endNs_ = tsNs_;  // the first mark with a duration: the earlier ones end where they start
        endNs_.reserve(tsNs_.capacity());
    }
    tsNs_.push_back(tsNs);
    item_.push_back(item);
    style_.push_back(style);
    if (!endNs_.empty() || endNs > tsNs) {
        endNs_.push_back(std::max(endNs, tsNs));
    }
}

void MarkTrack::finish() {
    levels_.clear();
    prefixEndNs_.clear();
    if (!std::is_sorted(tsNs_.begin(), tsNs_.end())) {
        // Merged captures can step back a little in time; keep equal times in arrival order.
        std::vector<size_t> order(tsNs_.size());
        std::iota(order.begin(), order.end(), size_t{0});
        std::stable_sort(order.begin(), order.end(), [this](size_t a, size_t b) { return tsNs_[a] < tsNs_[b]; });
        const auto permute = [&order](auto& column) {
            auto sorted = column;
            for (size_t i = 0; i < order.size(); ++i) {
                sorted[i] = column[order[i]];
            }
            column = std::move(sorted);
        };
        permute(tsNs_);
        permute(item_);
        permute(style_);
        if (!endNs_.empty()) {
            permute(endNs_);
        }
    }
    if (!endNs_.empty()) {
        prefixEndNs_ = runningMax(endNs_);
    }
    if (tsNs_.size() < 2) {
        return;
    }
    size_t lastKept = tsNs_.size();
    Level current = firstLevel(kFirstShift);
    for (int shift = kFirstShift; shift <= kLastShift; shift += kShiftStep) {
        const bool last = current.firstTsNs.size() <= 1 || shift + kShiftStep > kLastShift;
        Level next = last ? Level{} : coarsen(current, shift + kShiftStep);
        // A summary that does not halve the entries of the finer one saves little drawing time;
        // dropping it keeps all summaries together under the number of marks.
        if (current.firstTsNs.size() * 2 <= lastKept) {
            lastKept = current.firstTsNs.size();
            if (hasDurations()) {
                current.prefixEndNs = runningMax(current.maxEndNs);
            }
            levels_.push_back(std::move(current));
        }
        if (last) {
            break;
        }
        current = std::move(next);
    }
}

MarkTrack::Level MarkTrack::firstLevel(int shift) const {
    Level level;
    level.shift = shift;
    for (size_t mark = 0; mark < tsNs_.size(); ++mark) {
        const int64_t bucket = tsNs_[mark] >> shift;
        if (level.firstTsNs.empty() || (level.firstTsNs.back() >> shift) != bucket) {
            level.firstTsNs.push_back(tsNs_[mark]);
            level.count.push_back(0);
            level.style.push_back(0);
            level.firstMark.push_back(static_cast<uint32_t>(mark));
            if (hasDurations()) {
                level.maxEndNs.push_back(endNs_[mark]);
            }
        }
        ++level.count.back();
        level.style.back() |= style_[mark];
        if (hasDurations()) {
            level.maxEndNs.back() = std::max(level.maxEndNs.back(), endNs_[mark]);
        }
    }
    return level;
}

MarkTrack::Level MarkTrack::coarsen(const Level& finer, int shift) const {
    Level level;
    level.shift = shift;
    for (size_t entry = 0; entry < finer.firstTsNs.size(); ++entry) {
        const int64_t bucket = finer.firstTsNs[entry] >> shift;
        if (level.firstTsNs.empty() || (level.firstTsNs.back() >> shift) != bucket) {
            level.firstTsNs.push_back(finer.firstTsNs[entry]);
            level.count.push_back(0);
            level.style.push_back(0);
            level.firstMark.push_back(finer.firstMark[entry]);
            if (hasDurations()) {
                level.maxEndNs.push_back(finer.maxEndNs[entry]);
            }
        }
        level.count.back() += finer.count[entry];
        level.style.back() |= finer.style[entry];
        if (hasDurations()) {
            level.maxEndNs.back() = std::max(level.maxEndNs.back(), finer.maxEndNs[entry]);
        }
    }
    return level;
}

std::vector<int> MarkTrack::levelShifts() const {
    std::vector<int> shifts;
    shifts.reserve(levels_.size());
    for (const Level& level : levels_) {
        shifts.push_back(level.shift);
    }
    return shifts;
}

size_t MarkTrack::summaryEntries() const {
    size_t entries = 0;
    for (const Level& level : levels_) {
        entries += level.firstTsNs.size();
    }
    return entries;
}

FoldStats MarkTrack::fold(const TimeAxis& axis, double fromPx, double toPx, double foldPx,
                          std::vector<FoldedMark>& out) const {
    if (tsNs_.empty() || toPx < fromPx) {
        return {};
    }
    // The coarsest summary whose buckets fit in a pixel: at most a few entries per pixel column.
    const Level* chosen = nullptr;
    for (const Level& level : levels_) {
        if (static_cast<double>(int64_t{1} << level.shift) <= axis.nsPerPx()) {
            chosen = &level;
        }
    }
    if (chosen != nullptr) {
        FoldStats stats = foldFrom(LevelSource<Level>{*chosen}, axis, fromPx, toPx, foldPx, out);
        stats.levelShift = chosen->shift;
        return stats;
    }
    return foldFrom(RawSource{tsNs_, style_, endNs_, prefixEndNs_}, axis, fromPx, toPx, foldPx, out);
}

template <typename Source>
FoldStats MarkTrack::foldFrom(const Source& source, const TimeAxis& axis, double fromPx, double toPx, double foldPx,
                              std::vector<FoldedMark>& out) const {
    FoldStats stats;
    const int64_t fromNs = axis.toNs(fromPx);
    const int64_t toNs = axis.toNs(toPx);
    size_t first = 0;
    if (source.prefixEnd().empty()) {
        first = static_cast<size_t>(std::lower_bound(source.starts().begin(), source.starts().end(), fromNs) -
                                    source.starts().begin());
    } else {
        // Marks with a duration may start before the view and still reach into it.
        first = static_cast<size_t>(std::partition_point(source.prefixEnd().begin(), source.prefixEnd().end(),
                                                         [fromNs](int64_t end) { return end < fromNs; }) -
                                    source.prefixEnd().begin());
    }
    bool open = false;
    FoldedMark group;
    for (size_t i = first; i < source.size() && source.ts(i) <= toNs; ++i) {
        ++stats.entriesVisited;
        const double endX = std::min(axis.toX(source.end(i)), toPx);
        if (endX < fromPx) {
            continue;
        }
        const double x = std::max(axis.toX(source.ts(i)), fromPx);
        if (open && x < group.x + foldPx) {
            group.count += source.count(i);
            group.style |= source.styleOf(i);
            group.x2 = std::max(group.x2, endX);
            group.lastTsNs = source.ts(i);
            continue;
        }
        if (open) {
            out.push_back(group);
        }
        open = true;
        group.x = x;
        group.x2 = std::max(x, endX);
        group.count = source.count(i);
        group.style = source.styleOf(i);
        group.item = item_[source.firstMark(i)];
        group.firstTsNs = source.ts(i);
        group.lastTsNs = source.ts(i);
    }
    if (open) {
        out.push_back(group);
    }
    return stats;
}

}  // namespace tcpscope::ui
