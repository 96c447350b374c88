#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sinks/sink_spec.hpp"
#include "fleet/fleet_findings.hpp"

namespace tcpscope {

/// Port pools (a client address towards a server endpoint: the `ports_in_use` series) that share one
/// range of ports, added up per second, at `nearFullPercent` of that range or more: what none of the
/// pools shows alone.
struct PortPoolFinding {
    enum class Kind : uint8_t {
        /// One client address's pools towards several servers in one host's records, against its one
        /// ephemeral port range, in seconds when no single pool reaches the share alone.
        PortsAcrossServers,
        /// Several hosts' pools from the same client address (a NAT's, as their captures saw it)
        /// towards one server endpoint, against what one address has towards one endpoint; not
        /// loopback, and not an address and server whose connections two hosts saw both.
        NatPortsTowardServer,
    };
    Kind kind = Kind::PortsAcrossServers;
    std::string severity;                      ///< "error" at or past the capacity, else "warning"
    std::vector<std::string> hosts;            ///< the one host, or the hosts behind the address; name order
    std::vector<std::string> clientAddresses;  ///< the one client address
    std::vector<std::string> servers;          ///< the server endpoints, or the one endpoint
    int64_t peakPorts = 0;                     ///< ports open or in TIME_WAIT, added up, in the peak second
    int64_t capacity = 0;                      ///< ports the pools share
    int64_t peakLargestPoolPorts = 0;          ///< the largest single pool's (server's or host's) in that second
    int64_t peakTsNs = 0;                      ///< the first second with the peak
    uint32_t secondsNearFull = 0;              ///< seconds at the share or more in the window
    int64_t windowStartNs = 0;
    int64_t firstTsNs = 0;  ///< the first of those seconds
    int64_t endTsNs = 0;    ///< the end of the last of them
};

/// "ports_across_servers", "nat_ports_toward_server": the kind in the fleet's output.
std::string_view portPoolKindName(PortPoolFinding::Kind kind);

/// The SQL of each query (docs/records.md prints them for dashboards).
std::string portsAcrossServersSql(const std::string& database, const FleetQueryOptions& options);
std::string natPortsTowardServerSql(const std::string& database, const FleetQueryOptions& options);

/// Runs one of them on the server; the fullest pools first. Throws std::runtime_error with the
/// server's message or the connection's failure.
std::vector<PortPoolFinding> queryPortPoolFindings(const ClickHouseTarget& target, PortPoolFinding::Kind kind,
                                                   const FleetQueryOptions& options);

}  // namespace tcpscope
