#pragma once
#include <cstdint>
#include <functional>

#include "decode/ip_address.hpp"
#include "detect/detector_options.hpp"
#include "detect/support/population_series.hpp"
#include "tcp/connection.hpp"

namespace tcpscope {

/// A population series a detector kept about one host, handed out at the end of an analysis so
/// charts draw the same counts the findings were judged on (nothing is counted twice).
struct HostPopulation {
    enum class Kind : uint8_t {
        TimeWait,    ///< connections `host` closed first, still in its TIME_WAIT (time_wait_churn)
        PortsInUse,  ///< ephemeral ports `host` holds towards `server`, open or in TIME_WAIT (port_exhaustion)
    };
    Kind kind = Kind::TimeWait;
    IpAddress host;
    Side role = Side::Client;   ///< TimeWait: the role in which `host` closed first
    Endpoint server;            ///< PortsInUse: the server endpoint of the port pool
    uint16_t portRangeLow = 0;  ///< the ephemeral port range the detector judged against
    uint16_t portRangeHigh = 0;
    uint16_t observedLowPort = 0;  ///< PortsInUse: lowest and highest client port seen (0, 0 if none)
    uint16_t observedHighPort = 0;
    PopulationSeries series;

    /// A series of `kind` about `host`, judged against the port range of `options` (a copy of the
    /// detector's series, or the series itself moved when the detector is done with it).
    static HostPopulation of(Kind kind, const IpAddress& host, const DetectorOptions& options,
                             PopulationSeries series) {
        HostPopulation population;
        population.kind = kind;
        population.host = host;
        population.portRangeLow = options.portRangeLow;
        population.portRangeHigh = options.portRangeHigh;
        population.series = std::move(series);
        population.series.shrinkToFit();
        return population;
    }
};

/// Called with each population series a detector keeps, as it is now, without a copy: `about`
/// names it (its own `series` is left empty), `series` lives until the detector next counts.
using PopulationVisitor = std::function<void(const HostPopulation& about, const PopulationSeries& series)>;

}  // namespace tcpscope
