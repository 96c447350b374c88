#include "timeline/timeline_track.hpp"

#include <algorithm>
#include <numeric>
#include <span>
#include <stdexcept>

namespace tcpscope::ui {

namespace {

// The marks of a track, or the entries of one of its summaries, read the same way by the fold.
struct FoldSource {
    std::span<const int64_t> startNs;
    std::span<const int64_t> endNs;        // empty: instants
    std::span<const int64_t> prefixEndNs;  // empty: instants
    std::span<const uint16_t> style;
    std::span<const uint32_t> count;      // empty: one mark per entry
    std::span<const uint32_t> firstMark;  // empty: the entry is the mark

    [[nodiscard]] size_t size() const { return startNs.size(); }
    [[nodiscard]] int64_t end(size_t i) const { return endNs.empty() ? startNs[i] : endNs[i]; }
    [[nodiscard]] uint32_t countOf(size_t i) const { return count.empty() ? 1 : count[i]; }
    [[nodiscard]] size_t markOf(size_t i) const { return firstMark.empty() ? i : firstMark[i]; }
};

FoldStats foldSource(const FoldSource& source, std::span<const uint32_t> items, const TimeAxis& axis, double fromPx,
                     double toPx, double foldPx, std::vector<FoldedMark>& out) {
    FoldStats stats;
    const int64_t fromNs = axis.toNs(fromPx);
    const int64_t toNs = axis.toNs(toPx);
    size_t first = 0;
    if (source.prefixEndNs.empty()) {
        first = static_cast<size_t>(std::lower_bound(source.startNs.begin(), source.startNs.end(), fromNs) -
                                    source.startNs.begin());
    } else {
        // Marks with a duration may start before the view and still reach into it.
        first = static_cast<size_t>(std::partition_point(source.prefixEndNs.begin(), source.prefixEndNs.end(),
                                                         [fromNs](int64_t end) { return end < fromNs; }) -
                                    source.prefixEndNs.begin());
    }
    bool open = false;
    FoldedMark group;
    for (size_t i = first; i < source.size() && source.startNs[i] <= toNs; ++i) {
        ++stats.entriesVisited;
        const double endX = std::min(axis.toX(source.end(i)), toPx);
        if (endX < fromPx) {
            continue;
        }
        const double x = std::max(axis.toX(source.startNs[i]), fromPx);
        if (open && x < group.x + foldPx) {
            group.count += source.countOf(i);
            group.style |= source.style[i];
            group.x2 = std::max(group.x2, endX);
            group.lastTsNs = source.startNs[i];
            continue;
        }
        if (open) {
            out.push_back(group);
        }
        open = true;
        group.x = x;
        group.x2 = std::max(x, endX);
        group.count = source.countOf(i);
        group.style = source.style[i];
        group.item = items[source.markOf(i)];
        group.firstTsNs = source.startNs[i];
        group.lastTsNs = source.startNs[i];
    }
    if (open) {
        out.push_back(group);
    }
    return stats;
}

template <typename Column>
std::span<const typename Column::value_type> slice(const Column& column, size_t first, size_t count) {
    if (column.empty()) {
        return {};
    }
    return {column.data() + first, count};
}

}  // namespace

// --- MarkTrack -----------------------------------------------------------------------------

size_t MarkTrack::size() const {
    return store_ == nullptr ? 0 : store_->tracks_[index_].marks;
}

int64_t MarkTrack::tsNs(size_t mark) const {
    return store_->tsNs_[store_->tracks_[index_].firstMark + mark];
}

uint32_t MarkTrack::item(size_t mark) const {
    return store_->item_[store_->tracks_[index_].firstMark + mark];
}

uint16_t MarkTrack::style(size_t mark) const {
    return store_->style_[store_->tracks_[index_].firstMark + mark];
}

int64_t MarkTrack::endNs(size_t mark) const {
    const size_t position = store_->tracks_[index_].firstMark + mark;
    return store_->hasDurations() ? store_->endNs_[position] : store_->tsNs_[position];
}

std::vector<int> MarkTrack::levelShifts() const {
    std::vector<int> shifts;
    if (store_ != nullptr) {
        const MarkStore::TrackRange& range = store_->tracks_[index_];
        for (uint32_t level = 0; level < range.levels; ++level) {
            shifts.push_back(store_->levels_[range.firstLevel + level].shift);
        }
    }
    return shifts;
}

size_t MarkTrack::summaryEntries() const {
    size_t entries = 0;
    if (store_ != nullptr) {
        const MarkStore::TrackRange& range = store_->tracks_[index_];
        for (uint32_t level = 0; level < range.levels; ++level) {
            entries += store_->levels_[range.firstLevel + level].entries;
        }
    }
    return entries;
}

FoldStats MarkTrack::fold(const TimeAxis& axis, double fromPx, double toPx, double foldPx,
                          std::vector<FoldedMark>& out) const {
    if (empty() || toPx < fromPx) {
        return {};
    }
    const MarkStore& store = *store_;
    const MarkStore::TrackRange& range = store.tracks_[index_];
    const auto items = slice(store.item_, range.firstMark, range.marks);
    // The coarsest summary whose buckets fit in a pixel: at most a few entries per pixel column.
    const MarkStore::LevelRange* chosen = nullptr;
    for (uint32_t level = 0; level < range.levels; ++level) {
        const MarkStore::LevelRange& candidate = store.levels_[range.firstLevel + level];
        if (static_cast<double>(int64_t{1} << candidate.shift) <= axis.nsPerPx()) {
            chosen = &candidate;
        }
    }
    if (chosen != nullptr) {
        const size_t first = chosen->firstEntry;
        const size_t count = chosen->entries;
        const FoldSource source{
            slice(store.levelTsNs_, first, count),        slice(store.levelMaxEndNs_, first, count),
            slice(store.levelPrefixEndNs_, first, count), slice(store.levelStyle_, first, count),
            slice(store.levelCount_, first, count),       slice(store.levelFirstMark_, first, count)};
        FoldStats stats = foldSource(source, items, axis, fromPx, toPx, foldPx, out);
        stats.levelShift = chosen->shift;
        return stats;
    }
    const FoldSource source{slice(store.tsNs_, range.firstMark, range.marks),
                            slice(store.endNs_, range.firstMark, range.marks),
                            slice(store.prefixEndNs_, range.firstMark, range.marks),
                            slice(store.style_, range.firstMark, range.marks),
                            {},
                            {}};
    return foldSource(source, items, axis, fromPx, toPx, foldPx, out);
}

// --- MarkStore -----------------------------------------------------------------------------

void MarkStore::Level::clear() {
    firstTsNs.clear();
    count.clear();
    style.clear();
    firstMark.clear();
    maxEndNs.clear();
}

size_t MarkStore::memoryBytes() const {
    const auto bytes = [](const auto& column) { return column.capacity() * sizeof(column[0]); };
    return bytes(tsNs_) + bytes(item_) + bytes(style_) + bytes(endNs_) + bytes(prefixEndNs_) + bytes(tracks_) +
           bytes(levels_) + bytes(levelTsNs_) + bytes(levelCount_) + bytes(levelStyle_) + bytes(levelFirstMark_) +
           bytes(levelMaxEndNs_) + bytes(levelPrefixEndNs_);
}

void MarkStore::firstLevel(const TrackRange& range, int shift, Level& level) const {
    level.clear();
    level.shift = shift;
    for (size_t mark = 0; mark < range.marks; ++mark) {
        const size_t position = range.firstMark + mark;
        const int64_t bucket = tsNs_[position] >> shift;
        if (level.firstTsNs.empty() || (level.firstTsNs.back() >> shift) != bucket) {
            level.firstTsNs.push_back(tsNs_[position]);
            level.count.push_back(0);
            level.style.push_back(0);
            level.firstMark.push_back(static_cast<uint32_t>(mark));
            if (hasDurations()) {
                level.maxEndNs.push_back(endNs_[position]);
            }
        }
        ++level.count.back();
        level.style.back() |= style_[position];
        if (hasDurations()) {
            level.maxEndNs.back() = std::max(level.maxEndNs.back(), endNs_[position]);
        }
    }
}

void MarkStore::coarsen(const Level& finer, int shift, Level& level) const {
    level.clear();
    level.shift = shift;
    for (size_t entry = 0; entry < finer.firstTsNs.size(); ++entry) {
        // Buckets are aligned powers of two: a finer bucket lies within one coarser bucket.
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
}

void MarkStore::keep(const Level& level) {
    levels_.push_back({level.shift, levelTsNs_.size(), level.firstTsNs.size()});
    levelTsNs_.insert(levelTsNs_.end(), level.firstTsNs.begin(), level.firstTsNs.end());
    levelCount_.insert(levelCount_.end(), level.count.begin(), level.count.end());
    levelStyle_.insert(levelStyle_.end(), level.style.begin(), level.style.end());
    levelFirstMark_.insert(levelFirstMark_.end(), level.firstMark.begin(), level.firstMark.end());
    if (hasDurations()) {
        levelMaxEndNs_.insert(levelMaxEndNs_.end(), level.maxEndNs.begin(), level.maxEndNs.end());
        int64_t running = INT64_MIN;
        for (const int64_t end : level.maxEndNs) {
            running = std::max(running, end);
            levelPrefixEndNs_.push_back(running);
        }
    }
}

void MarkStore::buildLevels(uint32_t track, Level& current, Level& next) {
    const TrackRange range = tracks_[track];
    const auto firstLevelIndex = static_cast<uint32_t>(levels_.size());
    size_t lastKept = range.marks;
    firstLevel(range, kFirstShift, current);
    for (int shift = kFirstShift; shift <= kLastShift; shift += kShiftStep) {
        const bool last = current.firstTsNs.size() <= 1 || shift + kShiftStep > kLastShift;
        if (!last) {
            coarsen(current, shift + kShiftStep, next);
        }
        // A summary that does not halve the entries of the finer one saves little drawing time;
        // dropping it keeps all summaries together under the number of marks.
        if (current.firstTsNs.size() * 2 <= lastKept) {
            lastKept = current.firstTsNs.size();
            keep(current);
        }
        if (last) {
            break;
        }
        std::swap(current, next);
    }
    tracks_[track].firstLevel = firstLevelIndex;
    tracks_[track].levels = static_cast<uint32_t>(levels_.size()) - firstLevelIndex;
}

// --- MarkStoreBuilder ----------------------------------------------------------------------

MarkStoreBuilder::MarkStoreBuilder(uint32_t tracks) : tracks_(tracks) {}

void MarkStoreBuilder::expect(const std::vector<uint32_t>& counts) {
    placed_ = std::make_unique<MarkStore>();
    placed_->tracks_.resize(tracks_);
    next_.resize(tracks_);
    size_t offset = 0;
    for (uint32_t track = 0; track < tracks_; ++track) {
        const size_t marks = track < counts.size() ? counts[track] : 0;
        placed_->tracks_[track].firstMark = offset;
        placed_->tracks_[track].marks = marks;
        next_[track] = offset;
        offset += marks;
    }
    placed_->tsNs_.resize(offset);
    placed_->item_.resize(offset);
    placed_->style_.resize(offset);
}

void MarkStoreBuilder::append(uint32_t track, int64_t tsNs, uint32_t item, uint16_t style, int64_t endNs) {
    if (track >= tracks_) {
        return;
    }
    if (placed_) {
        MarkStore& store = *placed_;
        const MarkStore::TrackRange& range = store.tracks_[track];
        const size_t position = next_[track];
        if (position >= range.firstMark + range.marks) {
            throw std::logic_error("MarkStoreBuilder: more marks for a track than expected");
        }
        ++next_[track];
        store.tsNs_[position] = tsNs;
        store.item_[position] = item;
        store.style_[position] = style;
        if (endNs > tsNs && store.endNs_.empty()) {
            store.endNs_ = store.tsNs_;  // the earlier ones end where they start; the later ones are written
        }
        if (!store.endNs_.empty()) {
            store.endNs_[position] = std::max(endNs, tsNs);
        }
        return;
    }
    if (endNs > tsNs && pendingEndNs_.empty()) {
        // The first mark with a duration: the earlier ones end where they start.
        pendingEndNs_.reserve(pending_.capacity());
        for (const Pending& earlier : pending_) {
            pendingEndNs_.push_back(earlier.tsNs);
        }
    }
    pending_.push_back({tsNs, track, item, style});
    if (!pendingEndNs_.empty() || endNs > tsNs) {
        pendingEndNs_.push_back(std::max(endNs, tsNs));
    }
}

std::unique_ptr<MarkStore> MarkStoreBuilder::finish() {
    if (placed_) {
        std::unique_ptr<MarkStore> store = std::move(placed_);
        for (uint32_t track = 0; track < tracks_; ++track) {
            // Fewer than expected: the rest of its room stays unread.
            store->tracks_[track].marks = next_[track] - store->tracks_[track].firstMark;
        }
        next_ = {};
        sortAndSummarise(*store);
        return store;
    }
    auto store = std::make_unique<MarkStore>();
    const size_t marks = pending_.size();
    const bool durations = !pendingEndNs_.empty();
    store->tracks_.resize(tracks_);
    for (const Pending& mark : pending_) {
        ++store->tracks_[mark.track].marks;
    }
    std::vector<size_t> next(tracks_);
    size_t offset = 0;
    for (uint32_t track = 0; track < tracks_; ++track) {
        store->tracks_[track].firstMark = offset;
        next[track] = offset;
        offset += store->tracks_[track].marks;
    }
    // Scatter in arrival order: each track keeps the order its marks came in.
    store->tsNs_.resize(marks);
    store->item_.resize(marks);
    store->style_.resize(marks);
    if (durations) {
        store->endNs_.resize(marks);
    }
    for (size_t i = 0; i < marks; ++i) {
        const Pending& mark = pending_[i];
        const size_t position = next[mark.track]++;
        store->tsNs_[position] = mark.tsNs;
        store->item_[position] = mark.item;
        store->style_[position] = mark.style;
        if (durations) {
            store->endNs_[position] = pendingEndNs_[i];
        }
    }
    pending_ = {};
    pendingEndNs_ = {};
    sortAndSummarise(*store);
    return store;
}

void MarkStoreBuilder::sortAndSummarise(MarkStore& store) const {
    const bool durations = store.hasDurations();
    std::vector<size_t> order;
    for (uint32_t track = 0; track < tracks_; ++track) {
        const MarkStore::TrackRange range = store.tracks_[track];
        const auto begin = store.tsNs_.begin() + static_cast<ptrdiff_t>(range.firstMark);
        if (std::is_sorted(begin, begin + static_cast<ptrdiff_t>(range.marks))) {
            continue;
        }
        // Merged captures can step back a little in time; keep equal times in arrival order.
        order.resize(range.marks);
        std::iota(order.begin(), order.end(), range.firstMark);
        std::stable_sort(order.begin(), order.end(),
                         [&store](size_t a, size_t b) { return store.tsNs_[a] < store.tsNs_[b]; });
        const auto permute = [&](auto& column) {
            std::vector<typename std::decay_t<decltype(column)>::value_type> sorted(range.marks);
            for (size_t i = 0; i < range.marks; ++i) {
                sorted[i] = column[order[i]];
            }
            std::copy(sorted.begin(), sorted.end(), column.begin() + static_cast<ptrdiff_t>(range.firstMark));
        };
        permute(store.tsNs_);
        permute(store.item_);
        permute(store.style_);
        if (durations) {
            permute(store.endNs_);
        }
    }
    if (durations) {
        store.prefixEndNs_.resize(store.tsNs_.size());
        for (const MarkStore::TrackRange& range : store.tracks_) {
            int64_t running = INT64_MIN;
            for (size_t i = range.firstMark; i < range.firstMark + range.marks; ++i) {
                running = std::max(running, store.endNs_[i]);
                store.prefixEndNs_[i] = running;
            }
        }
    }
    MarkStore::Level current;
    MarkStore::Level coarser;
    for (uint32_t track = 0; track < tracks_; ++track) {
        if (store.tracks_[track].marks >= MarkStore::kMinMarksForLevels) {
            store.buildLevels(track, current, coarser);
        }
    }
}

}  // namespace tcpscope::ui
