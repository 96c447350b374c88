#pragma once
#include <cstdint>
#include <vector>

#include "analysis/capture_analysis.hpp"
#include "records/record_sink.hpp"
#include "records/record_source.hpp"

namespace tcpscope {

/// The highest count of a series in one stretch of UTC time.
struct SeriesSlot {
    int64_t startNs = 0;  ///< a multiple of intervalSeconds seconds since the epoch
    uint32_t intervalSeconds = 1;
    int64_t highest = 0;
};

/// A population series (TIME_WAIT, ports in use) per UTC second, or per coarser aligned stretch when
/// the series was kept coarser than a second; the count is held until `endTsNs`. Stretches whose
/// highest count is 0 are left out, and so are those that end by `fromNs` (what a live capture sent).
std::vector<SeriesSlot> populationSlots(const PopulationSeries& series, int64_t endTsNs, int64_t fromNs = INT64_MIN);

/// What one series counts: its `series` (time_wait, ports_in_use, connection_rate), `subject`,
/// `server` and `role` fields.
struct SeriesKey {
    const char* series = "";
    std::string subject;
    std::string server;
    std::string role;
};

/// The UTC second (since the epoch) that `tsNs` falls in.
int64_t utcSecondOf(int64_t tsNs);
/// Whether `connection` counts in `connection_rate`: the capture holds its first SYN.
bool countsInConnectionRate(const Connection& connection);

/// The key of a detector's population series.
SeriesKey seriesKeyOf(const HostPopulation& population);
/// The port range's size a population is judged against (`capacity`).
uint32_t seriesCapacityOf(const HostPopulation& population);
/// The `series` record of one stretch of a series.
std::string seriesRecord(const RecordSource& source, const SeriesKey& key, const SeriesSlot& slot, uint32_t capacity);

/// Writes the `series` records of an analysis (docs/records.md): the TIME_WAIT and ports-in-use
/// series its detectors kept, and new connections per second per listener. Returns how many.
uint64_t writeSeriesRecords(const RecordSource& source, const CaptureAnalysis& analysis, RecordSink& sink);

}  // namespace tcpscope
