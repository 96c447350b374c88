#include "align/first_transmissions.hpp"

#include <algorithm>

namespace tcpscope {

FirstTransmissions::FirstTransmissions(const std::vector<StreamSegment>& segments) {
    uint64_t seenEnd = 0;
    for (const StreamSegment& segment : segments) {
        const uint64_t end = segment.offset + segment.length;
        if (end <= seenEnd) {
            continue;  // a resend: its bytes were seen before
        }
        // A gap (bytes the capture missed) leaves a hole between runs; lookups in it find nothing.
        runs_.push_back(Run{std::max(segment.offset, seenEnd), end, segment.tsNs});
        seenEnd = end;
    }
}

const FirstTransmissions::Run* FirstTransmissions::runAt(uint64_t offset) const {
    const auto after = std::upper_bound(runs_.begin(), runs_.end(), offset,
                                        [](uint64_t value, const Run& run) { return value < run.begin; });
    if (after == runs_.begin()) {
        return nullptr;
    }
    const Run& run = *std::prev(after);
    return offset < run.end ? &run : nullptr;
}

std::optional<int64_t> FirstTransmissions::firstSeenNs(uint64_t offset) const {
    const Run* run = runAt(offset);
    return run != nullptr ? std::optional<int64_t>(run->tsNs) : std::nullopt;
}

bool FirstTransmissions::startsSegment(uint64_t offset) const {
    const Run* run = runAt(offset);
    return run != nullptr && run->begin == offset;
}

}  // namespace tcpscope
