#include "series/stretch_count.hpp"

#include <algorithm>
#include <cmath>

namespace tcpscope {

void StretchCount::add(int64_t startNs, int64_t endNs) {
    if (endNs > startNs) {
        startsNs_.push_back(startNs);
        endsNs_.push_back(endNs);
    }
}

void StretchCount::finish() {
    std::sort(startsNs_.begin(), startsNs_.end());
    std::sort(endsNs_.begin(), endsNs_.end());
    const std::vector<uint32_t> whole =
        columnMaxima(startsNs_.empty() ? 0 : startsNs_.front(), 1e300, startsNs_.empty() ? 0 : 1);
    peak_ = whole.empty() ? 0 : whole.front();
}

uint32_t StretchCount::countAt(int64_t tsNs) const {
    const auto started = std::upper_bound(startsNs_.begin(), startsNs_.end(), tsNs) - startsNs_.begin();
    const auto ended = std::upper_bound(endsNs_.begin(), endsNs_.end(), tsNs) - endsNs_.begin();
    return static_cast<uint32_t>(std::max<std::ptrdiff_t>(started - ended, 0));
}

std::vector<uint32_t> StretchCount::columnMaxima(int64_t fromNs, double nsPerColumn, size_t columns) const {
    std::vector<uint32_t> maxima(columns, 0);
    if (columns == 0 || !(nsPerColumn > 0)) {
        return maxima;
    }
    int64_t count = countAt(fromNs);
    auto start = std::upper_bound(startsNs_.begin(), startsNs_.end(), fromNs);
    auto end = std::upper_bound(endsNs_.begin(), endsNs_.end(), fromNs);
    int64_t highest = count;
    // The changes before `limit` in time order, an end before a start at the same time; the
    // highest count they reach.
    const auto advance = [&](double limit) {
        while (true) {
            const bool startIn = start != startsNs_.end() && static_cast<double>(*start) < limit;
            const bool endIn = end != endsNs_.end() && static_cast<double>(*end) < limit;
            if (!startIn && !endIn) {
                return;
            }
            if (endIn && (!startIn || *end <= *start)) {
                --count;
                ++end;
            } else {
                ++count;
                ++start;
                highest = std::max(highest, count);
            }
        }
    };
    for (size_t column = 0; column < columns; ++column) {
        const double columnEnd = static_cast<double>(fromNs) + static_cast<double>(column + 1) * nsPerColumn;
        advance(columnEnd);
        maxima[column] = static_cast<uint32_t>(std::max<int64_t>(highest, 0));
        // The next column starts with what is under way at its start (a stretch ending exactly
        // there is over: changes at the boundary belong to the next column, ends first).
        const int64_t boundary = static_cast<int64_t>(std::floor(columnEnd));
        while (end != endsNs_.end() && *end <= boundary && (start == startsNs_.end() || *end <= *start)) {
            --count;
            ++end;
        }
        highest = count;
    }
    return maxima;
}

}  // namespace tcpscope
