#pragma once
#include <vector>

#include "sinks/sink_spec.hpp"
#include "fleet/fleet_findings.hpp"
#include "fleet/port_pool_findings.hpp"

namespace tcpscope {

/// What every fleet query found.
struct FleetResults {
    std::vector<FleetFinding> sameFindingOnManyHosts;
    std::vector<PortPoolFinding> portsAcrossServers;
    std::vector<PortPoolFinding> natPortsTowardServer;

    [[nodiscard]] bool empty() const {
        return sameFindingOnManyHosts.empty() && portsAcrossServers.empty() && natPortsTowardServer.empty();
    }
};

/// Runs the fleet queries on the server, one after the other. Throws std::runtime_error with the
/// server's message or the connection's failure.
FleetResults runFleetQueries(const ClickHouseTarget& target, const FleetQueryOptions& options);

}  // namespace tcpscope
