#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "align/connection_segments.hpp"

namespace tcpscope {

/// When each byte of one side's stream first appeared in the capture: the new data of each
/// segment (resent bytes left out), sorted by stream offset. Answers "when was byte N first seen"
/// and "does a segment start at byte N", what matching calls by their byte counts needs.
class FirstTransmissions {
public:
    explicit FirstTransmissions(const std::vector<StreamSegment>& segments);

    /// Capture time at which stream byte `offset` was first seen, or nullopt if it never was.
    [[nodiscard]] std::optional<int64_t> firstSeenNs(uint64_t offset) const;
    /// True if a segment's new data starts exactly at `offset` (a write that began a segment).
    [[nodiscard]] bool startsSegment(uint64_t offset) const;
    /// One past the highest byte seen.
    [[nodiscard]] uint64_t end() const { return runs_.empty() ? 0 : runs_.back().end; }

    /// One run of new bytes, in stream order.
    struct Run {
        uint64_t begin = 0;
        uint64_t end = 0;
        int64_t tsNs = 0;
    };
    [[nodiscard]] const std::vector<Run>& runs() const { return runs_; }

private:
    [[nodiscard]] const Run* runAt(uint64_t offset) const;
    std::vector<Run> runs_;
};

}  // namespace tcpscope
