// PopulationSeries keeps only the buckets in which the count changed. Its history must be exactly
// the one a bucket-per-interval array gives (the findings' series and the charts are drawn from
// it), checked here against such an array on random step functions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "detect/support/population_series.hpp"

using tcpscope::PopulationSeries;

namespace {

// The straightforward form: one slot per bucket, halved when there would be too many.
class DenseSeries {
public:
    void set(int64_t tsNs, int64_t value) {
        if (!started_) {
            started_ = true;
            startNs_ = tsNs;
            buckets_.assign(1, value_);
        }
        tsNs = std::max(tsNs, startNs_);
        auto index = static_cast<size_t>((tsNs - startNs_) / bucketNs_);
        while (index >= kMaxBuckets) {
            std::vector<int64_t> merged((buckets_.size() + 1) / 2);
            for (size_t i = 0; i < buckets_.size(); ++i) {
                merged[i / 2] = (i % 2 == 0) ? buckets_[i] : std::max(merged[i / 2], buckets_[i]);
            }
            buckets_ = std::move(merged);
            bucketNs_ *= 2;
            index = static_cast<size_t>((tsNs - startNs_) / bucketNs_);
        }
        while (buckets_.size() <= index) {
            buckets_.push_back(value_);
        }
        buckets_[index] = std::max(buckets_[index], value);
        value_ = value;
    }
    [[nodiscard]] int64_t value() const { return value_; }
    [[nodiscard]] const std::vector<int64_t>& buckets() const { return buckets_; }
    [[nodiscard]] int64_t bucketNs() const { return bucketNs_; }

private:
    static constexpr size_t kMaxBuckets = 512;
    bool started_ = false;
    int64_t startNs_ = 0;
    int64_t bucketNs_ = 1'000'000;
    std::vector<int64_t> buckets_;
    int64_t value_ = 0;
};

}  // namespace

TEST_CASE("population series keeps the same bucket maxima as a dense array", "[detect][population]") {
    std::mt19937_64 random(7);
    for (int round = 0; round < 200; ++round) {
        PopulationSeries sparse;
        DenseSeries dense;
        int64_t tsNs = 1'700'000'000'000'000'000 + static_cast<int64_t>(random() % 1'000'000);
        const int changes = 1 + static_cast<int>(random() % 400);
        // Gaps from sub-bucket to minutes, so that some series halve many times and others never.
        const int64_t maxGapNs = int64_t{1} << (10 + random() % 30);
        for (int i = 0; i < changes; ++i) {
            tsNs += static_cast<int64_t>(random() % static_cast<uint64_t>(maxGapNs));
            const int64_t delta = static_cast<int64_t>(random() % 7) - 3;
            sparse.add(tsNs, delta);
            dense.set(tsNs, dense.value() + delta);
            if (random() % 3 == 0) {
                sparse.add(tsNs, 1);  // several changes at the same instant
                dense.set(tsNs, dense.value() + 1);
            }
        }
        CAPTURE(round, changes, maxGapNs);
        REQUIRE(sparse.bucketNs() == dense.bucketNs());
        REQUIRE(sparse.bucketMaxima() == dense.buckets());
        REQUIRE(sparse.value() == dense.value());
    }
}

TEST_CASE("population series keeps the same bucket maxima when times step back", "[detect][population]") {
    // A change is decided from the last bucket mirrored in the series; one that lands before the
    // last changed bucket (capture times that went back) is placed among the stored buckets, and
    // the mirror must stay that of the last one, through halvings.
    std::mt19937_64 random(9);
    for (int round = 0; round < 200; ++round) {
        const int64_t maxGapNs = int64_t{1} << (12 + random() % 24);
        std::vector<std::pair<int64_t, int64_t>> changes(1 + random() % 400);  // [time, delta]
        int64_t latestNs = 1'700'000'000'000'000'000 + static_cast<int64_t>(random() % 1'000'000);
        for (auto& [atNs, delta] : changes) {
            const bool back = random() % 4 == 0;  // up to eight gaps before the latest time so far
            atNs = back ? latestNs - static_cast<int64_t>(random() % static_cast<uint64_t>(8 * maxGapNs))
                        : (latestNs += static_cast<int64_t>(random() % static_cast<uint64_t>(maxGapNs)));
            delta = static_cast<int64_t>(random() % 7) - 3;
        }
        PopulationSeries sparse;
        DenseSeries dense;
        for (const auto& [atNs, delta] : changes) {
            sparse.add(atNs, delta);
            dense.set(atNs, dense.value() + delta);
        }
        CAPTURE(round, changes.size(), maxGapNs);
        REQUIRE(sparse.bucketNs() == dense.bucketNs());
        REQUIRE(sparse.bucketMaxima() == dense.buckets());
        REQUIRE(sparse.value() == dense.value());
    }
}

TEST_CASE("population series keeps counts beyond 16 and 32 bits as they are", "[detect][population]") {
    // Counts are stored in 16 bits, then 32, until one does not fit; the history must not change
    // when the storage widens, however far into the series that happens, by one step or by two.
    std::mt19937_64 random(5);
    for (int round = 0; round < 300; ++round) {
        PopulationSeries sparse;
        DenseSeries dense;
        int64_t tsNs = 1'700'000'000'000'000'000;
        const int changes = 1 + static_cast<int>(random() % 300);
        const int widenAt = static_cast<int>(random() % static_cast<uint64_t>(changes));
        const int jump = round % 3 == 0 ? 17 : (round % 3 == 1 ? 33 : 0);  // 0: past 16 bits, then 32
        const int widenAgainAt = widenAt + static_cast<int>(random() % static_cast<uint64_t>(changes - widenAt));
        for (int i = 0; i < changes; ++i) {
            tsNs += static_cast<int64_t>(random() % (uint64_t{1} << 26));
            int64_t delta = static_cast<int64_t>(random() % 7) - 3;
            if (i == widenAt) {
                delta = (random() % 2 == 0 ? 1 : -1) * (int64_t{1} << (jump == 0 ? 17 : jump));
            } else if (jump == 0 && i == widenAgainAt) {
                delta = (random() % 2 == 0 ? 1 : -1) * (int64_t{1} << 33);
            }
            sparse.add(tsNs, delta);
            dense.set(tsNs, dense.value() + delta);
        }
        CAPTURE(round, changes, widenAt, jump, widenAgainAt);
        REQUIRE(sparse.bucketNs() == dense.bucketNs());
        REQUIRE(sparse.bucketMaxima() == dense.buckets());
        REQUIRE(sparse.value() == dense.value());
        REQUIRE(sparse.peak() == std::max<int64_t>(0, *std::max_element(dense.buckets().begin(), dense.buckets().end())));
    }
}

TEST_CASE("population series points span the whole input with the count carried to the end",
          "[detect][population]") {
    PopulationSeries series;
    const int64_t startNs = 1'000'000'000;
    series.add(startNs, 1);
    series.add(startNs + 5'000'000, 1);
    series.add(startNs + 9'000'000, -2);
    // Ten buckets of 1 ms, then the count (0) held until 20 ms: 20 points of one bucket each.
    const auto points = series.points(startNs, startNs + 19'500'000, 50);
    REQUIRE(points.size() == 20);
    CHECK(points[0][1] == 1);
    CHECK(points[5][1] == 2);
    CHECK(points[8][1] == 2);
    CHECK(points[9][1] == 2);  // the bucket of the drop keeps its highest count
    CHECK(points[10][1] == 0);
    CHECK(points[19][1] == 0);
    CHECK(series.peak() == 2);
}

TEST_CASE("population series points are the highest dense bucket of each stretch", "[detect][population]") {
    // pointList() walks only the changed buckets; each point must still be the highest count of
    // the dense buckets it stands for, the count carried to the end counted in.
    std::mt19937_64 random(11);
    for (int round = 0; round < 200; ++round) {
        PopulationSeries sparse;
        DenseSeries dense;
        const int64_t startNs = 1'700'000'000'000'000'000;
        int64_t tsNs = startNs;
        const int changes = 1 + static_cast<int>(random() % 300);
        const int64_t maxGapNs = int64_t{1} << (10 + random() % 28);
        for (int i = 0; i < changes; ++i) {
            const int64_t delta = static_cast<int64_t>(random() % 7) - 3;
            sparse.add(tsNs, delta);  // the first change at startNs, where the buckets begin
            dense.set(tsNs, dense.value() + delta);
            tsNs += static_cast<int64_t>(random() % static_cast<uint64_t>(maxGapNs));
        }
        const int64_t endNs = tsNs + static_cast<int64_t>(random() % 3) * dense.bucketNs() * 40;
        const size_t maxPoints = 1 + random() % 250;
        const auto points = sparse.pointList(startNs, endNs, maxPoints);
        const std::vector<int64_t>& buckets = dense.buckets();
        const size_t total = std::max(buckets.size(), static_cast<size_t>((endNs - startNs) / dense.bucketNs()) + 1);
        const size_t perPoint = (total + maxPoints - 1) / maxPoints;
        CAPTURE(round, changes, maxGapNs, maxPoints);
        REQUIRE(points.size() == (total + perPoint - 1) / perPoint);
        for (size_t point = 0; point < points.size(); ++point) {
            int64_t highest = INT64_MIN;
            for (size_t bucket = point * perPoint; bucket < std::min(total, (point + 1) * perPoint); ++bucket) {
                highest = std::max(highest, bucket < buckets.size() ? buckets[bucket] : dense.value());
            }
            CAPTURE(point);
            REQUIRE(points[point].highest == highest);
        }
    }
}
