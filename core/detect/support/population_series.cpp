#include "detect/support/population_series.hpp"

#include <algorithm>
#include <cmath>

namespace tcpscope {

namespace {

constexpr size_t kFirstCapacity = 2;  // changes stored with the first allocation: a port pool sees two

}  // namespace

void PopulationSeries::set(int64_t tsNs, int64_t value) {
    if (!started_) {
        started_ = true;
        startNs_ = tsNs;
    }
    widenFor(value);  // the stored counts are earlier values, which fit
    std::visit([&](auto& changed) { record(changed, tsNs, value); }, changed_);
    value_ = value;
    if (value > peak_) {
        peak_ = value;
        peakTsNs_ = std::max(tsNs, startNs_);
    }
}

void PopulationSeries::widenFor(int64_t value) {
    if (std::holds_alternative<TinyBuckets>(changed_) && (value < INT16_MIN || value > INT16_MAX)) {
        widen<TinyBuckets, NarrowBuckets>();
    }
    if (std::holds_alternative<NarrowBuckets>(changed_) && (value < INT32_MIN || value > INT32_MAX)) {
        widen<NarrowBuckets, WideBuckets>();
    }
}

template <typename From, typename To>
void PopulationSeries::widen() {
    const From& narrow = std::get<From>(changed_);
    To wide;
    wide.reserve(narrow.size() + 1);
    for (const auto& entry : narrow) {
        wide.push_back({entry.bucket, entry.highest, entry.carriedBefore});
    }
    changed_ = std::move(wide);
}

void PopulationSeries::mirrorLast() {
    std::visit(
        [this](const auto& changed) {
            lastBucket_ = changed.back().bucket;
            lastHighest_ = changed.back().highest;
        },
        changed_);
}

template <typename Buckets>
void PopulationSeries::record(Buckets& changed, int64_t tsNs, int64_t value) {
    using Count = decltype(changed.front().highest);
    if (changed.empty()) {
        changed.reserve(kFirstCapacity);
        changed.push_back({0, static_cast<Count>(value_), static_cast<Count>(value_)});
        lastBucket_ = 0;
        lastHighest_ = value_;
    }
    tsNs = std::max(tsNs, startNs_);
    auto index = static_cast<size_t>((tsNs - startNs_) / bucketNs_);
    if (index >= kMaxBuckets) {
        do {
            halveResolution(changed);
            index = static_cast<size_t>((tsNs - startNs_) / bucketNs_);
        } while (index >= kMaxBuckets);
        mirrorLast();
    }
    const auto bucket = static_cast<uint32_t>(index);
    if (bucket > lastBucket_) {
        // the count held until here
        lastBucket_ = bucket;
        lastHighest_ = std::max(value_, value);
        changed.push_back(
            {static_cast<uint16_t>(bucket), static_cast<Count>(lastHighest_), static_cast<Count>(value_)});
    } else if (bucket == lastBucket_) {
        lastHighest_ = std::max(lastHighest_, value);
        changed.back().highest = static_cast<Count>(lastHighest_);
    } else {
        // Before the last changed bucket (times that went back): find it or the carried value.
        auto slot = std::lower_bound(changed.begin(), changed.end(), bucket,
                                     [](const auto& entry, uint32_t wanted) { return entry.bucket < wanted; });
        if (slot->bucket != bucket) {
            slot = changed.insert(slot, {static_cast<uint16_t>(bucket), slot->carriedBefore, slot->carriedBefore});
        }
        slot->highest = std::max(slot->highest, static_cast<Count>(value));
    }
}

template <typename Buckets>
void PopulationSeries::halveResolution(Buckets& changed) {
    // Each new bucket keeps the higher of the two it replaces, a bucket without a change counting
    // with the count carried through it. Merged in place: the write position never passes the
    // entry being read, nor the next one that is read ahead.
    size_t merged = 0;
    for (size_t i = 0; i < changed.size(); ++i) {
        const auto entry = changed[i];
        const auto target = static_cast<uint16_t>(entry.bucket / 2);
        if (merged > 0 && changed[merged - 1].bucket == target) {
            changed[merged - 1].highest = std::max(changed[merged - 1].highest, entry.highest);
            continue;
        }
        auto combined = entry;
        combined.bucket = target;
        if (entry.bucket % 2 == 1) {
            combined.highest = std::max(combined.highest, entry.carriedBefore);  // its unchanged left half
        } else if (i + 1 < changed.size() && changed[i + 1].bucket != entry.bucket + 1) {
            combined.highest = std::max(combined.highest, changed[i + 1].carriedBefore);  // unchanged right half
        }
        changed[merged++] = combined;
    }
    changed.resize(merged);
    bucketNs_ *= 2;
}

std::vector<int64_t> PopulationSeries::bucketMaxima() const {
    std::vector<int64_t> dense;
    dense.reserve(bucketCount());
    std::visit(
        [&](const auto& changed) {
            for (const auto& entry : changed) {
                dense.resize(entry.bucket, entry.carriedBefore);
                dense.push_back(entry.highest);
            }
        },
        changed_);
    return dense;
}

void PopulationSeries::visitStretches(size_t firstBucket, const StretchVisitor& visit) const {
    std::visit(
        [&](const auto& changed) {
            // The buckets between two changed ones carry the count of the later one's carriedBefore.
            auto entry = std::lower_bound(changed.begin(), changed.end(), firstBucket,
                                          [](const auto& stored, size_t bucket) { return stored.bucket < bucket; });
            size_t next = firstBucket;  // the first bucket not visited yet
            for (; entry != changed.end(); ++entry) {
                if (entry->bucket > next) {
                    visit(next, entry->bucket, entry->carriedBefore);
                }
                visit(entry->bucket, size_t{entry->bucket} + 1, entry->highest);
                next = size_t{entry->bucket} + 1;
            }
        },
        changed_);
}

std::vector<PopulationSeries::Point> PopulationSeries::pointList(int64_t originNs, int64_t endTsNs,
                                                                 size_t maxPoints) const {
    if (!started_ || maxPoints == 0) {
        return {};
    }
    return std::visit([&](const auto& changed) { return pointList(changed, originNs, endTsNs, maxPoints); },
                      changed_);
}

template <typename Buckets>
std::vector<PopulationSeries::Point> PopulationSeries::pointList(const Buckets& changed, int64_t originNs,
                                                                 int64_t endTsNs, size_t maxPoints) const {
    std::vector<Point> points;
    const size_t stored = bucketCount();
    const size_t total = bucketsUntil(endTsNs);
    const size_t perPoint = bucketsPerPoint(total, maxPoints);
    points.reserve((total + perPoint - 1) / perPoint);
    // Walks the changed buckets alongside the points; the buckets between two changed ones hold
    // the count carried into the later one.
    auto next = changed.begin();
    for (size_t first = 0; first < total; first += perPoint) {
        const size_t last = std::min(first + perPoint, total);
        int64_t highest = last > stored ? value_ : INT64_MIN;  // buckets after the last change hold the count
        while (next != changed.end() && next->bucket < last) {
            if (next->bucket > first) {
                highest = std::max<int64_t>(highest, next->carriedBefore);  // unchanged buckets before it in this stretch
            }
            highest = std::max<int64_t>(highest, next->highest);
            ++next;
        }
        if (next != changed.end() && first < std::min(last, stored)) {
            highest = std::max<int64_t>(highest, next->carriedBefore);  // unchanged buckets up to the stretch's end
        }
        const int64_t atNs = startNs_ + static_cast<int64_t>(first) * bucketNs_;
        const double seconds = std::round(static_cast<double>(atNs - originNs) / 1e6) / 1e3;
        points.push_back({seconds, highest});
    }
    return points;
}

size_t PopulationSeries::bucketsUntil(int64_t endTsNs) const {
    const auto untilEnd = static_cast<size_t>(std::max<int64_t>(endTsNs - startNs_, 0) / bucketNs_) + 1;
    return std::max(bucketCount(), untilEnd);
}

double PopulationSeries::pointSeconds(int64_t endTsNs, size_t maxPoints) const {
    if (!started_ || maxPoints == 0) {
        return 0;
    }
    const auto stepNs =
        static_cast<double>(bucketsPerPoint(bucketsUntil(endTsNs), maxPoints)) * static_cast<double>(bucketNs_);
    return stepNs / 1e9;
}

}  // namespace tcpscope
