#include "detect/population_series.hpp"

#include <algorithm>
#include <cmath>

namespace tcpscope {

void PopulationSeries::set(int64_t tsNs, int64_t value) {
    if (!started_) {
        started_ = true;
        startNs_ = tsNs;
        bucketMax_.assign(1, value_);
    }
    tsNs = std::max(tsNs, startNs_);
    auto index = static_cast<size_t>((tsNs - startNs_) / bucketNs_);
    while (index >= kMaxBuckets) {
        // Halve the resolution: each new bucket keeps the higher of the two it replaces.
        std::vector<int64_t> merged((bucketMax_.size() + 1) / 2);
        for (size_t i = 0; i < bucketMax_.size(); ++i) {
            merged[i / 2] = (i % 2 == 0) ? bucketMax_[i] : std::max(merged[i / 2], bucketMax_[i]);
        }
        bucketMax_ = std::move(merged);
        bucketNs_ *= 2;
        index = static_cast<size_t>((tsNs - startNs_) / bucketNs_);
    }
    while (bucketMax_.size() <= index) {
        bucketMax_.push_back(value_);  // the count held through the buckets without a change
    }
    bucketMax_[index] = std::max(bucketMax_[index], value);
    value_ = value;
    if (value > peak_) {
        peak_ = value;
        peakTsNs_ = tsNs;
    }
}

nlohmann::json PopulationSeries::points(int64_t originNs, int64_t endTsNs, size_t maxPoints) const {
    nlohmann::json points = nlohmann::json::array();
    if (!started_ || maxPoints == 0) {
        return points;
    }
    const size_t stored = bucketMax_.size();
    const size_t total = bucketsUntil(endTsNs);
    const size_t perPoint = bucketsPerPoint(total, maxPoints);
    for (size_t first = 0; first < total; first += perPoint) {
        const size_t last = std::min(first + perPoint, total);
        int64_t highest = last > stored ? value_ : INT64_MIN;  // buckets after the last change hold the count
        for (size_t i = first; i < std::min(last, stored); ++i) {
            highest = std::max(highest, bucketMax_[i]);
        }
        const int64_t atNs = startNs_ + static_cast<int64_t>(first) * bucketNs_;
        const double seconds = std::round(static_cast<double>(atNs - originNs) / 1e6) / 1e3;
        points.push_back({seconds, highest});
    }
    return points;
}

size_t PopulationSeries::bucketsUntil(int64_t endTsNs) const {
    const auto untilEnd = static_cast<size_t>(std::max<int64_t>(endTsNs - startNs_, 0) / bucketNs_) + 1;
    return std::max(bucketMax_.size(), untilEnd);
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
