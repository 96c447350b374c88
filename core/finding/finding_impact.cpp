#include "finding/finding_impact.hpp"

#include <algorithm>
#include <cmath>

namespace tcpscope {

namespace {

double toMs(int64_t ns) { return std::round(static_cast<double>(ns) / 1e3) / 1e3; }

// The nearest-rank percentile `percent` of `sorted`, which is not empty.
int64_t percentile(const std::vector<int64_t>& sorted, double percent) {
    const auto rank = static_cast<size_t>(std::ceil(percent / 100.0 * static_cast<double>(sorted.size())));
    return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

uint32_t WaitTally::add(uint32_t connection, int64_t startNs, int64_t endNs) {
    waits_.push_back({startNs, std::max(startNs, endNs), connection});
    return static_cast<uint32_t>(waits_.size() - 1);
}

void WaitTally::setLength(uint32_t index, int64_t lengthNs) {
    Wait& wait = waits_[index];
    wait.endNs = wait.startNs + std::max<int64_t>(lengthNs, 0);
}

std::vector<WaitRange> WaitTally::merged(std::optional<WaitRange> ongoing) const {
    std::vector<WaitRange> ranges;
    ranges.reserve(waits_.size() + 1);
    for (const Wait& wait : waits_) {
        ranges.push_back({wait.startNs, wait.endNs});
    }
    if (ongoing) {
        ranges.push_back(*ongoing);
    }
    return mergeRanges(std::move(ranges));
}

FindingImpact WaitTally::impact(std::optional<WaitRange> ongoing) const {
    FindingImpact impact;
    std::vector<int64_t> lengths;
    lengths.reserve(waits_.size() + 1);
    std::vector<uint32_t> connections;
    for (const Wait& wait : waits_) {
        if (wait.endNs <= wait.startNs) {
            continue;  // a wait that cost nothing (yet) delayed nothing
        }
        lengths.push_back(wait.endNs - wait.startNs);
        if (wait.connection != kNoConnection) {
            connections.push_back(wait.connection);
        }
    }
    if (ongoing && ongoing->endNs > ongoing->startNs) {
        lengths.push_back(ongoing->endNs - ongoing->startNs);
    }
    if (lengths.empty()) {
        return impact;
    }
    std::sort(connections.begin(), connections.end());
    impact.connections = static_cast<uint32_t>(std::unique(connections.begin(), connections.end()) - connections.begin());
    std::sort(lengths.begin(), lengths.end());
    impact.delayedRequests = lengths.size();
    impact.p50Ms = toMs(percentile(lengths, 50));
    impact.p99Ms = toMs(percentile(lengths, 99));
    impact.maxMs = toMs(lengths.back());
    int64_t sumNs = 0;
    for (const int64_t length : lengths) {
        sumNs += length;
    }
    impact.connectionMs = toMs(sumNs);
    impact.wallMs = toMs(coveredNs(merged(ongoing)));
    return impact;
}

std::vector<WaitRange> mergeRanges(std::vector<WaitRange> ranges) {
    std::sort(ranges.begin(), ranges.end(),
              [](const WaitRange& a, const WaitRange& b) { return a.startNs < b.startNs; });
    std::vector<WaitRange> merged;
    for (const WaitRange& range : ranges) {
        if (range.endNs <= range.startNs) {
            continue;
        }
        if (!merged.empty() && range.startNs <= merged.back().endNs) {
            merged.back().endNs = std::max(merged.back().endNs, range.endNs);
        } else {
            merged.push_back(range);
        }
    }
    return merged;
}

int64_t coveredNs(const std::vector<WaitRange>& ranges) {
    int64_t covered = 0;
    for (const WaitRange& range : ranges) {
        covered += range.endNs - range.startNs;
    }
    return covered;
}

}  // namespace tcpscope
