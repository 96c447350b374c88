#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sinks/sink_spec.hpp"

namespace tcpscope {

/// What the fleet queries look at.
struct FleetQueryOptions {
    int64_t sinceNs = 0;           ///< records from this UTC time on
    uint32_t minHosts = 2;         ///< a fleet finding needs this many hosts
    uint32_t windowSeconds = 600;  ///< "at once": within one aligned window of this length
    uint32_t nearFullPercent = 80;  ///< port pools added up count from this share of their capacity
    uint32_t natPorts = 0;          ///< ports of a NAT address towards one endpoint; 0: the records' capacity
    double timeoutSeconds = 30;
};

/// The same kind of finding towards one server on several hosts in one window: what no single
/// host's capture shows (a backend whose delayed ACKs stall every client, a service whose port
/// pool every job server exhausts).
struct FleetFinding {
    std::string kind;                ///< the hosts' finding kind, e.g. "port_exhaustion"
    std::string severity;            ///< the most severe of them
    std::string server;              ///< the endpoint (or host) they concern
    std::vector<std::string> hosts;  ///< in name order
    uint64_t findings = 0;
    double durationMs = 0;  ///< their time lost added up (connection time, not wall clock)
    int64_t windowStartNs = 0;
    int64_t firstTsNs = 0;
    int64_t lastTsNs = 0;
};

/// The SQL of the query (docs/records.md prints it for dashboards).
std::string sameFindingOnManyHostsSql(const std::string& database, const FleetQueryOptions& options);

/// Runs it on the server; most hosts first, then most time lost. Throws std::runtime_error with the
/// server's message or the connection's failure.
std::vector<FleetFinding> querySameFindingOnManyHosts(const ClickHouseTarget& target, const FleetQueryOptions& options);

}  // namespace tcpscope
