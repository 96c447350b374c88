#include "fleet/fleet_queries.hpp"

namespace tcpscope {

FleetResults runFleetQueries(const ClickHouseTarget& target, const FleetQueryOptions& options) {
    FleetResults results;
    results.sameFindingOnManyHosts = querySameFindingOnManyHosts(target, options);
    results.portsAcrossServers = queryPortPoolFindings(target, PortPoolFinding::Kind::PortsAcrossServers, options);
    results.natPortsTowardServer = queryPortPoolFindings(target, PortPoolFinding::Kind::NatPortsTowardServer, options);
    return results;
}

}  // namespace tcpscope
