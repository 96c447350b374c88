#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace tcpscope {

/// A count that steps up and down over time (TIME_WAIT entries of a host, ephemeral ports in
/// use), with its peak. The history is kept as the highest count per time bucket; buckets double
/// in width whenever there would be too many, so memory stays bounded however long the input is
/// and a chart can be drawn from it without seeing every change. Only buckets in which the count
/// changed are stored (a series of a port pool that saw two connections costs a few dozen bytes,
/// not a bucket per millisecond of its life); the ones between them hold the count carried over.
class PopulationSeries {
public:
    /// The count becomes `value` at `tsNs`; times must not go backwards.
    void set(int64_t tsNs, int64_t value);
    /// The count changes by `delta` at `tsNs`.
    void add(int64_t tsNs, int64_t delta) { set(tsNs, value_ + delta); }

    /// Hands back the history's spare capacity (a series kept for a chart grows no more).
    void shrinkToFit() {
        std::visit([](auto& changed) { changed.shrink_to_fit(); }, changed_);
    }

    /// The current count.
    [[nodiscard]] int64_t value() const { return value_; }
    /// The highest count so far, and when it was first reached.
    [[nodiscard]] int64_t peak() const { return peak_; }
    [[nodiscard]] int64_t peakTsNs() const { return peakTsNs_; }
    /// When the first change was recorded (0 before any).
    [[nodiscard]] int64_t startTsNs() const { return startNs_; }
    /// The stored history: the highest count in each bucket of bucketNs() from startTsNs() on, up
    /// to the bucket of the last change.
    [[nodiscard]] int64_t bucketNs() const { return bucketNs_; }
    [[nodiscard]] std::vector<int64_t> bucketMaxima() const;
    /// The same history as stretches of buckets [fromBucket, toBucket) with one highest count, in
    /// order, from bucket `firstBucket` on: a call or two per change, however many buckets between.
    using StretchVisitor = std::function<void(size_t fromBucket, size_t toBucket, int64_t highest)>;
    void visitStretches(size_t firstBucket, const StretchVisitor& visit) const;
    /// How many buckets the history has: the last change is in the last one.
    [[nodiscard]] size_t bucketCount() const {
        return std::visit([](const auto& changed) { return changed.empty() ? 0 : size_t{changed.back().bucket} + 1; },
                          changed_);
    }

    /// One point of a series: seconds since an origin (rounded to the millisecond), and the
    /// highest count in the stretch it stands for.
    struct Point {
        double seconds = 0;
        int64_t highest = 0;
    };
    /// At most `maxPoints` points [seconds since `originNs`, highest count in that stretch], from
    /// the first change until `endTsNs` (the count is assumed to stay as it is until then).
    [[nodiscard]] std::vector<Point> pointList(int64_t originNs, int64_t endTsNs, size_t maxPoints) const;
    /// pointList() as a JSON array of [seconds, highest] pairs.
    [[nodiscard]] nlohmann::json points(int64_t originNs, int64_t endTsNs, size_t maxPoints) const {
        return pairsJson(pointList(originNs, endTsNs, maxPoints));
    }
    /// Points as a JSON array of [seconds, value] pairs.
    template <typename Value>
    [[nodiscard]] static nlohmann::json pairsJson(const std::vector<Value>& points) {
        nlohmann::json::array_t pairs;
        pairs.reserve(points.size());
        for (const Value& point : points) {
            nlohmann::json::array_t pair;
            pair.reserve(2);
            pair.emplace_back(point.seconds);
            pair.emplace_back(point.highest);
            pairs.emplace_back(std::move(pair));
        }
        return pairs;
    }
    /// The time each of those points stands for, in seconds.
    [[nodiscard]] double pointSeconds(int64_t endTsNs, size_t maxPoints) const;

private:
    static constexpr size_t kMaxBuckets = 512;

    // How many buckets there are until `endTsNs`, and how many of them each output point covers.
    [[nodiscard]] size_t bucketsUntil(int64_t endTsNs) const;
    [[nodiscard]] static size_t bucketsPerPoint(size_t buckets, size_t maxPoints) {
        return (buckets + maxPoints - 1) / maxPoints;
    }

    // A bucket in which the count changed: its number (below kMaxBuckets), its highest count, and
    // the count carried through the buckets between the previous changed bucket and this one.
    // Counts are kept in 16 bits (6 bytes a bucket: a host's TIME_WAIT series over a long capture
    // has hundreds of buckets, and a capture tens of thousands of hosts) until one does not fit,
    // then in 32 bits (12 bytes), then in 64.
    template <typename Count>
    struct ChangedBucket {
        uint16_t bucket = 0;
        Count highest = 0;
        Count carriedBefore = 0;
    };
    static_assert(kMaxBuckets <= UINT16_MAX + 1, "bucket numbers fit in 16 bits");
    using TinyBuckets = std::vector<ChangedBucket<int16_t>>;
    using NarrowBuckets = std::vector<ChangedBucket<int32_t>>;
    using WideBuckets = std::vector<ChangedBucket<int64_t>>;

    // Stores the buckets with counts of the next width, once `value` does not fit the present one.
    void widenFor(int64_t value);
    template <typename From, typename To>
    void widen();
    template <typename Buckets>
    void record(Buckets& changed, int64_t tsNs, int64_t value);
    template <typename Buckets>
    void halveResolution(Buckets& changed);
    template <typename Buckets>
    [[nodiscard]] std::vector<Point> pointList(const Buckets& changed, int64_t originNs, int64_t endTsNs,
                                               size_t maxPoints) const;

    // The last changed bucket's number and highest count, mirrored here: a change in the same or a
    // later bucket (nearly every change) is decided without reading the stored buckets, whose
    // memory is elsewhere and usually out of the cache; it only writes to them.
    void mirrorLast();

    bool started_ = false;
    uint32_t lastBucket_ = 0;
    int64_t lastHighest_ = 0;
    int64_t startNs_ = 0;
    int64_t bucketNs_ = 1'000'000;  // starts at 1 ms, doubles as needed
    std::variant<TinyBuckets, NarrowBuckets, WideBuckets> changed_;  // by bucket
    int64_t value_ = 0;
    int64_t peak_ = 0;
    int64_t peakTsNs_ = 0;
};

}  // namespace tcpscope
