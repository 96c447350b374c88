#include "records/series_records.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "records/record_line.hpp"

namespace tcpscope {

namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

int64_t floorDiv(int64_t value, int64_t divisor) {
    const int64_t quotient = value / divisor;
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient;
}

// Slots by number with their highest count, in order.
using Slots = std::vector<std::pair<int64_t, int64_t>>;

// Puts `highest` into every slot that [fromNs, toNs) overlaps. Stretches come in time order without
// overlapping, so a stretch's first slot is the last one raised or a later one.
void raiseSlots(Slots& slots, int64_t slotNs, int64_t fromNs, int64_t toNs, int64_t highest) {
    if (highest <= 0) {
        return;
    }
    const int64_t last = floorDiv(std::max(fromNs, toNs - 1), slotNs);
    for (int64_t slot = floorDiv(fromNs, slotNs); slot <= last; ++slot) {
        if (!slots.empty() && slots.back().first == slot) {
            slots.back().second = std::max(slots.back().second, highest);
        } else {
            slots.emplace_back(slot, highest);
        }
    }
}

// New connections (a first SYN in the capture) per listener and UTC second.
std::map<std::pair<Endpoint, int64_t>, int64_t> connectionsPerListenerSecond(const ConnectionStore& connections) {
    std::map<std::pair<Endpoint, int64_t>, int64_t> counts;
    for (size_t i = 0; i < connections.size(); ++i) {
        const Connection& connection = connections[i];
        if (countsInConnectionRate(connection)) {
            ++counts[{connection.server, floorDiv(connection.firstTsNs, kSecondNs)}];
        }
    }
    return counts;
}

}  // namespace

int64_t utcSecondOf(int64_t tsNs) { return floorDiv(tsNs, kSecondNs); }

bool countsInConnectionRate(const Connection& connection) {
    return !connection.midstream && connection.from(Side::Client).sawSyn;
}

SeriesKey seriesKeyOf(const HostPopulation& population) {
    if (population.kind == HostPopulation::Kind::TimeWait) {
        return {"time_wait", population.host.toString(), std::string(), std::string(sideName(population.role))};
    }
    return {"ports_in_use", population.host.toString(), population.server.toString(), std::string()};
}

uint32_t seriesCapacityOf(const HostPopulation& population) {
    return static_cast<uint32_t>(population.portRangeHigh >= population.portRangeLow
                                     ? population.portRangeHigh - population.portRangeLow + 1
                                     : 0);
}

std::string seriesRecord(const RecordSource& source, const SeriesKey& key, const SeriesSlot& slot, uint32_t capacity) {
    RecordLine record(source, RecordType::Series, slot.startNs, std::string_view());
    record.field("series", key.series);
    record.field("interval_s", slot.intervalSeconds);
    record.field("value", slot.highest);
    record.field("subject", key.subject);
    record.field("server", key.server);
    record.field("role", key.role);
    record.field("capacity", capacity);
    return std::move(record).take();
}

std::vector<SeriesSlot> populationSlots(const PopulationSeries& series, int64_t endTsNs, int64_t fromNs) {
    const size_t bucketCount = series.bucketCount();
    if (bucketCount == 0) {
        return {};
    }
    const int64_t bucketNs = series.bucketNs();
    const auto intervalSeconds = static_cast<uint32_t>(std::max<int64_t>(1, (bucketNs + kSecondNs - 1) / kSecondNs));
    const int64_t slotNs = int64_t{intervalSeconds} * kSecondNs;
    // Only the buckets that end after fromNs - slotNs can raise a slot not sent yet (a live
    // capture asks once a second: the history before is read no more).
    size_t firstBucket = 0;
    if (fromNs != INT64_MIN && fromNs - slotNs > series.startTsNs()) {
        firstBucket = std::min(bucketCount, static_cast<size_t>((fromNs - slotNs - series.startTsNs()) / bucketNs));
    }
    Slots slots;
    series.visitStretches(firstBucket, [&](size_t fromBucket, size_t toBucket, int64_t highest) {
        raiseSlots(slots, slotNs, series.startTsNs() + static_cast<int64_t>(fromBucket) * bucketNs,
                   series.startTsNs() + static_cast<int64_t>(toBucket) * bucketNs, highest);
    });
    // After the last change the count holds until the end of the capture.
    int64_t heldFromNs = series.startTsNs() + static_cast<int64_t>(bucketCount) * bucketNs;
    if (fromNs != INT64_MIN) {
        heldFromNs = std::max(heldFromNs, fromNs - slotNs);
    }
    if (endTsNs > heldFromNs) {
        raiseSlots(slots, slotNs, heldFromNs, endTsNs, series.value());
    }
    std::vector<SeriesSlot> out;
    out.reserve(slots.size());
    for (const auto& [slot, highest] : slots) {
        if ((slot + 1) * slotNs > fromNs) {
            out.push_back({slot * slotNs, intervalSeconds, highest});
        }
    }
    return out;
}

uint64_t writeSeriesRecords(const RecordSource& source, const CaptureAnalysis& analysis, RecordSink& sink) {
    uint64_t written = 0;
    const int64_t endTsNs = analysis.engine->lastTsNs();
    for (const HostPopulation& population : analysis.populations) {
        const SeriesKey key = seriesKeyOf(population);
        const uint32_t capacity = seriesCapacityOf(population);
        for (const SeriesSlot& slot : populationSlots(population.series, endTsNs)) {
            sink.write(RecordType::Series, source.origin.epochNs(slot.startNs),
                       seriesRecord(source, key, slot, capacity));
            ++written;
        }
    }
    for (const auto& [listenerSecond, count] : connectionsPerListenerSecond(analysis.engine->connections())) {
        const SeriesKey key{"connection_rate", std::string(), listenerSecond.first.toString(), std::string()};
        const SeriesSlot slot{listenerSecond.second * kSecondNs, 1, count};
        sink.write(RecordType::Series, source.origin.epochNs(slot.startNs), seriesRecord(source, key, slot, 0));
        ++written;
    }
    return written;
}

}  // namespace tcpscope
