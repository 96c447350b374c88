#include "align/clock_search.hpp"

#include <algorithm>

#include <absl/container/flat_hash_map.h>

namespace tcpscope {

namespace {

constexpr size_t kMaxWrites = 2000;            // writes sampled from the log
constexpr size_t kMaxPairsPerWrite = 64;       // segments of its size considered per write and centre
constexpr size_t kMaxSegmentsPerLength = 1'000'000;
constexpr int64_t kPeakWidthNs = 250'000;      // prompt writes leave within this; held ones spread wider
constexpr int64_t kSeparateNs = 5'000'000;     // another pile this far away is a different offset
constexpr size_t kMaxCandidates = 5;
constexpr size_t kMaxDifferences = 4'000'000;

struct Write {
    int64_t tsNs;
    uint32_t bytes;
};

// Writes with bytes, evenly sampled when there are many.
std::vector<Write> sampledWrites(const std::vector<TracedSocket>& sockets, uint32_t logIndex, const StraceLog& log) {
    std::vector<Write> writes;
    for (const TracedSocket& socket : sockets) {
        if (socket.log != logIndex) {
            continue;
        }
        for (uint32_t index : socket.records) {
            const SyscallRecord& record = log.records[index];
            if (record.kind == SyscallKind::Write && record.succeeded() && record.bytes > 0 &&
                record.bytes <= UINT32_MAX) {
                writes.push_back({record.tsNs, static_cast<uint32_t>(record.bytes)});
            }
        }
    }
    if (writes.size() > kMaxWrites) {
        std::vector<Write> sample;
        for (size_t i = 0; i < kMaxWrites; ++i) {
            sample.push_back(writes[i * writes.size() / kMaxWrites]);
        }
        writes = std::move(sample);
    }
    return writes;
}

// Capture times of the data segments whose length is one of the writes' sizes, by length.
absl::flat_hash_map<uint32_t, std::vector<int64_t>> segmentTimesByLength(const AnalysisEngine& engine,
                                                                        const std::vector<Write>& writes) {
    absl::flat_hash_map<uint32_t, std::vector<int64_t>> byLength;
    for (const Write& write : writes) {
        byLength.try_emplace(write.bytes);
    }
    const PacketIndex& packets = engine.packets();
    for (size_t i = 0; i < packets.size(); ++i) {
        const IndexedPacket packet = packets.at(i);
        if (packet.payloadLength == 0) {
            continue;
        }
        const auto found = byLength.find(packet.payloadLength);
        if (found != byLength.end() && found->second.size() < kMaxSegmentsPerLength) {
            found->second.push_back(packet.tsNs);
        }
    }
    for (auto& [length, times] : byLength) {
        std::sort(times.begin(), times.end());
    }
    return byLength;
}

struct Pile {
    size_t count = 0;
    size_t begin = 0;  // index of its first difference
};

// The 1 ms window holding the most differences not yet given to a pile.
Pile densestUnused(const std::vector<int64_t>& differences, const std::vector<bool>& used) {
    Pile best;
    size_t end = 0;
    for (size_t begin = 0; begin < differences.size(); ++begin) {
        end = std::max(end, begin);
        while (end < differences.size() && differences[end] - differences[begin] <= kPeakWidthNs) {
            ++end;
        }
        if (!used[begin] && end - begin > best.count) {
            best = {end - begin, begin};
        }
    }
    return best;
}

}  // namespace

ClockSearch searchClockOffset(const std::vector<TracedSocket>& sockets, uint32_t logIndex, const StraceLog& log,
                              const AnalysisEngine& engine, const ClockSearchWindow& window) {
    ClockSearch search;
    const std::vector<Write> writes = sampledWrites(sockets, logIndex, log);
    search.writes = static_cast<uint32_t>(writes.size());
    if (writes.empty()) {
        return search;
    }
    const auto byLength = segmentTimesByLength(engine, writes);
    std::vector<int64_t> differences;
    for (const Write& write : writes) {
        if (differences.size() >= kMaxDifferences) {
            break;
        }
        const std::vector<int64_t>& times = byLength.at(write.bytes);
        for (int64_t center : window.centersNs) {
            // The segments nearest to the centre, on both sides, within the window.
            const int64_t middle = write.tsNs + center;
            const auto split = std::lower_bound(times.begin(), times.end(), middle);
            auto after = split;
            for (size_t taken = 0; after != times.end() && *after <= middle + window.halfWidthNs &&
                                   taken < kMaxPairsPerWrite;
                 ++after, ++taken) {
                differences.push_back(*after - write.tsNs);
            }
            auto before = split;
            for (size_t taken = 0; before != times.begin() && *std::prev(before) >= middle - window.halfWidthNs &&
                                   taken < kMaxPairsPerWrite;
                 ++taken) {
                --before;
                differences.push_back(*before - write.tsNs);
            }
        }
    }
    std::sort(differences.begin(), differences.end());
    // The highest piles, each apart from the others. Besides the offset itself, held writes
    // (Nagle) and a regular workload (each write pairs with the same-sized segment of the step
    // before or after) make piles too: only the matching can tell which is the clock.
    std::vector<Pile> piles;
    std::vector<bool> used(differences.size(), false);
    while (piles.size() < kMaxCandidates) {
        const Pile pile = densestUnused(differences, used);
        if (pile.count < 3 || pile.count * 5 < writes.size()) {
            break;
        }
        piles.push_back(pile);
        const int64_t at = differences[pile.begin];
        for (size_t i = 0; i < differences.size(); ++i) {
            used[i] = used[i] || std::llabs(differences[i] - at) < kSeparateNs;
        }
    }
    for (const Pile& pile : piles) {
        // The low end of the pile: the delay of the promptest writes, as the final fit takes it.
        search.candidates.push_back({differences[pile.begin + pile.count / 10], static_cast<uint32_t>(pile.count)});
    }
    return search;
}

}  // namespace tcpscope
