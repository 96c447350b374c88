#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcpscope {

/// How many stretches of time [start, end) are under way at each moment (connections waiting on
/// their handshake, ...), kept as their sorted starts and ends: 16 bytes a stretch, and the
/// highest count in each pixel column of any zoom read in O(log n + changes in view + columns).
class StretchCount {
public:
    StretchCount() = default;
    /// Adds a stretch; an empty or reversed one is left out. Call finish() after the last.
    void add(int64_t startNs, int64_t endNs);
    /// Sorts what was added.
    void finish();

    [[nodiscard]] size_t size() const { return startsNs_.size(); }
    /// The count just after `tsNs` (a stretch ending at `tsNs` is over, one starting then has begun).
    [[nodiscard]] uint32_t countAt(int64_t tsNs) const;
    /// The highest count within each of `columns` columns of `nsPerColumn` from `fromNs`.
    [[nodiscard]] std::vector<uint32_t> columnMaxima(int64_t fromNs, double nsPerColumn, size_t columns) const;
    /// The highest count at any moment.
    [[nodiscard]] uint32_t peak() const { return peak_; }

private:
    std::vector<int64_t> startsNs_;
    std::vector<int64_t> endsNs_;
    uint32_t peak_ = 0;
};

}  // namespace tcpscope
